// The MCP reference servers, end to end through the real engine: `mcp-server-everything` (stdio) and
// `mcp-server-filesystem` on a temporary folder, spawned as processes; a scripted model calls echo,
// get-sum, the long-running operation (progress on the card, then Stop), the tiny image, a resource
// and a file read. The permission card is asked (with the server and tool), results are framed,
// fitted to the budget, saved, and a reloaded chat holds the same messages. The hub is faked by a
// TurnToolSource over McpClient (the plugin's hub, src/mcp/hub.ts, is another engineer's part).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpClient } from "../../src/headless";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { ChatService, type ChatEvent } from "../../src/chat/ChatService";
import type { TurnToolSource } from "../../src/chat/toolSources";
import { PermissionRules, type AccessDecision, type AlwaysRule, type AskInfo } from "../../src/tools/permissions";
import { ScriptedToolAdapter, call, ownIds, type ScriptStep } from "../support/toolScript";
import type { GenerateRequest, Tool, ToolCall } from "../../src/core/types";
import type { ToolCard } from "../../src/chat/toolCard";
import { sleep } from "../support/chatHarness";

const BIN = join(process.cwd(), "node_modules", ".bin");
let everything: McpClient;
let files: McpClient;
let dir: string;

beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), "discover-mcp-fs-"));
	await writeFile(join(dir, "plan.md"), "We ship the garden app in May.\n");
	[everything, files] = await Promise.all([
		McpClient.connect({ name: "everything", command: join(BIN, "mcp-server-everything"), args: ["stdio"] }, { loginShell: false }),
		McpClient.connect({ name: "files", command: join(BIN, "mcp-server-filesystem"), args: [dir] }, { loginShell: false }),
	]);
}, 60_000);

afterAll(async () => {
	await Promise.all([everything?.close(), files?.close()]);
	await rm(dir, { recursive: true, force: true });
});

/** The hub's part, faked: every connected client's tools. */
function sourceOf(...clients: McpClient[]): TurnToolSource {
	return {
		async toolsFor() {
			const lists = await Promise.all(clients.map((c) => c.listTools()));
			return { tools: lists.flat(), problems: [] };
		},
	};
}

/** Where a chat's tool images go (the host's attachments folder, here a map). */
const imageFiles = new Map<string, string>();

function chatWith(script: (req: GenerateRequest, i: number) => ScriptStep, store = new MemoryFileStore()) {
	const adapter = new ScriptedToolAdapter(script);
	const sessions = new SessionManager(store, { onWarning: () => undefined });
	const events: ChatEvent[] = [];
	const rules: AlwaysRule[] = [];
	const permissions = new PermissionRules({ readAllowed: () => true, alwaysRules: () => rules, saveAlwaysRules: (r) => (rules.splice(0, rules.length, ...r), Promise.resolve()) });
	const asked: { call: ToolCall; tool: Tool; info?: AskInfo }[] = [];
	const ask = (c: ToolCall, tool: Tool, _preview: unknown, info?: AskInfo): Promise<AccessDecision> => (asked.push({ call: c, tool, info }), Promise.resolve({ kind: "once" }));
	let chatId = "";
	const chat: ChatService = new ChatService({
		adapter,
		sessions,
		settings: { maxPromptTokens: 16_384, reservedResponseTokens: 512, systemPrompt: "Be brief." },
		onEvent: (e) => events.push(e),
		callIds: ownIds(),
		mcpTools: sourceOf(everything, files),
		approve: (c, tool) => permissions.approverFor((chatId = chat.sessionId ?? chatId), ask)(c, tool),
		saveToolImage: (image, name) => (imageFiles.set(name, image.data), Promise.resolve({ path: name, mediaType: image.mediaType, width: 1, height: 1, bytes: Math.floor((image.data.length * 3) / 4) })),
		readImage: (path) => Promise.resolve(Uint8Array.from(Buffer.from(imageFiles.get(path) ?? "", "base64"))),
	});
	const cards = (): ToolCard[] => events.flatMap((e) => (e.type === "tool" ? [e.card] : []));
	return { chat, adapter, sessions, store, events, asked, cards };
}

describe("the MCP reference servers in the chat", () => {
	it("offers their tools with cleaned schemas, asks before echo and get-sum with the server and tool on the card, and saves framed results that reload", async () => {
		const { chat, adapter, asked, cards, sessions } = chatWith((_r, i) => (i === 0 ? { calls: [call("everything__echo", { message: "hello there" }), call("everything__get-sum", { a: 2, b: 40 })] } : { text: "42." }));
		await chat.sendMessage("Echo and add.");
		const offered = adapter.chatRequests[0]?.tools ?? [];
		expect(offered.map((t) => t.name)).toEqual(expect.arrayContaining(["everything__echo", "everything__get-sum", "everything__trigger-long-running-operation"]));
		for (const t of offered) expect(JSON.stringify(t.parameters)).not.toContain("$schema");
		expect(asked.map((a) => a.info?.mcp)).toEqual([{ server: "everything", tool: "echo" }, { server: "everything", tool: "get-sum" }]);
		const done = cards().filter((k) => k.state === "done");
		expect(done.map((k) => k.mcp?.annotations?.readOnlyHint)).toEqual([true, true]);
		const results = chat.messages.filter((m) => m.role === "tool").map((m) => m.content);
		expect(results[0]).toContain("⟦MCP RESULT everything/echo⟧");
		expect(results[0]).toContain("hello there");
		expect(results[1]).toContain("42");
		const reloaded = await sessions.load(chat.sessionId ?? "");
		expect(reloaded.messages).toEqual(chat.messages);
	}, 60_000);

	it("the long-running operation shows progress on its card, and Stop frees the chat within 200 ms", async () => {
		const { chat, cards } = chatWith((_r, i) => (i === 0 ? { calls: [call("everything__trigger-long-running-operation", { duration: 30, steps: 30 })] } : { text: "never" }));
		const controller = new AbortController();
		const sent = chat.sendMessage("Run the long one.", { signal: controller.signal });
		const end = Date.now() + 15_000;
		while (!cards().some((k) => k.state === "running" && k.progress !== undefined)) {
			if (Date.now() > end) throw new Error("no progress reached the card");
			await sleep(20);
		}
		const progress = cards().filter((k) => k.progress !== undefined).at(-1)?.progress;
		expect(progress?.total).toBe(30);
		const stoppedAt = performance.now();
		controller.abort();
		const answer = await sent;
		expect(performance.now() - stoppedAt).toBeLessThan(200);
		expect(answer.cancelled).toBe(true);
		expect(chat.busy).toBe(false);
		expect(chat.messages.find((m) => m.role === "tool")?.content).toBe("The person stopped the chat while this call ran.");
		// The server is still usable after the cancelled call.
		const echo = (await everything.listTools()).find((t) => t.name === "everything__echo");
		expect(await echo?.run({ message: "still here" }, { signal: new AbortController().signal })).toContain("still here");
	}, 60_000);

	it("an image result, a resource and structured content come back described and framed; a file is read from the filesystem server", async () => {
		const fsTools = (await files.listTools()).map((t) => t.name);
		const read = fsTools.includes("files__read_text_file") ? "files__read_text_file" : "files__read_file";
		const { chat, sessions, adapter } = chatWith((_r, i) =>
			i === 0
				? { calls: [call("everything__get-tiny-image", {}), call("everything__get-resource-reference", { resourceType: "Text", resourceId: 1 }), call("everything__get-structured-content", { location: "Chicago" }), call(read, { path: join(dir, "plan.md") })] }
				: { text: "Done." },
		);
		await chat.sendMessage("Show me things.");
		const results = chat.messages.filter((m) => m.role === "tool");
		expect(results.map((m) => m.isError === true)).toEqual([false, false, false, false]);
		expect(results[0]?.content).toMatch(/\[Image: image\/png, /);
		// The image itself is saved with the result and sent to the model as an image.
		expect(results[0]?.attachments?.[0]?.mediaType).toBe("image/png");
		const images = adapter.chatRequests[1]?.messages.flatMap((m) => m.images ?? []) ?? [];
		expect(images).toHaveLength(1);
		expect(images[0]?.data.length).toBeGreaterThan(50);
		expect(results[1]?.content).toMatch(/\[Resource [^\]]*\]/);
		expect(results[2]?.content).toMatch(/Chicago|temperature/i);
		expect(results[3]?.content).toContain("We ship the garden app in May.");
		const reloaded = await sessions.load(chat.sessionId ?? "");
		expect(reloaded.messages).toEqual(chat.messages);
	}, 60_000);

	it("a large result is fitted to its share of the budget (its most relevant passages, still framed), and the saved result is what the model saw", async () => {
		const filler = Array.from({ length: 3_000 }, (_, i) => `Line ${i} talks about the weather and nothing else.`).join("\n");
		const big = `${filler}\nThe garden launch date is the ninth of May.\n${filler}`;
		await writeFile(join(dir, "big.md"), big);
		const fsTools = (await files.listTools()).map((t) => t.name);
		const read = fsTools.includes("files__read_text_file") ? "files__read_text_file" : "files__read_file";
		const { chat, adapter } = chatWith((_r, i) => (i === 0 ? { calls: [call(read, { path: join(dir, "big.md") })] } : { text: "Long." }));
		await chat.sendMessage("When is the garden launch date?");
		const saved = chat.messages.find((m) => m.role === "tool")?.content ?? "";
		expect(saved.length).toBeLessThan(big.length / 2);
		expect(saved).toMatch(/^⟦MCP RESULT files\/read_\w+⟧/);
		expect(saved.endsWith("⟦END OF MCP RESULT⟧")).toBe(true);
		expect(saved).toContain("The garden launch date is the ninth of May.");
		const sent = adapter.chatRequests[1]?.messages.find((m) => m.role === "tool")?.content;
		expect(sent).toBe(saved);
	}, 60_000);
});
