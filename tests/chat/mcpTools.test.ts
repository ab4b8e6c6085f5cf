// MCP tools in the chat loop, through the seam the hub implements (TurnToolSource), faked here: the
// turn asks for them at its start, offers them after the vault tools with schemas cleaned for the
// dialect and keys sorted, says problems as warnings (never a failure), turns off a tool whose
// schema cannot be sent, shows list_changed, counts their definitions in the preview, and Stop
// frees a chat whose tool never answers.
import { describe, expect, it } from "vitest";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { ChatService, type ChatEvent, type ChatServiceOptions } from "../../src/chat/ChatService";
import { sleep } from "../support/chatHarness";
import { ScriptedToolAdapter, call, ownIds, recordingTool, type ScriptStep } from "../support/toolScript";
import type { ChatSettings, GenerateRequest, Tool } from "../../src/core/types";
import type { ToolCard } from "../../src/chat/toolCard";
import type { TurnToolSource } from "../../src/chat/toolSources";
import { TOOL_IMAGES_NOTE } from "../../src/chat/toolResults";
import { imageTokens } from "../../src/core/imageSize";
import { estimateTokens } from "../../src/chat/tokens";
import { pngHeaderBase64 } from "../support/pngHeader";



const SETTINGS: Partial<ChatSettings> = { maxPromptTokens: 8192, reservedResponseTokens: 256, recentMessagesToKeep: 6, minRecentMessagesToKeep: 2, systemPrompt: "Be brief." };

function mcpTool(server: string, tool: string, parameters: Record<string, unknown>, run: Tool["run"] = () => Promise.resolve(`${tool} ran`)): Tool {
	return { name: `${server}__${tool}`, description: `[MCP ${server}/${tool}]`, parameters, access: "write", mcp: { server, tool, annotations: { readOnlyHint: true } }, run };
}

class FakeSource implements TurnToolSource {
	tools: Tool[] = [];
	problems: { server: string; message: string }[] = [];
	asked: (readonly string[] | undefined)[] = [];
	hang = false;
	private listeners: ((server: string) => void)[] = [];
	toolsFor(servers: readonly string[] | undefined, signal?: AbortSignal): Promise<{ tools: Tool[]; problems: { server: string; message: string }[] }> {
		this.asked.push(servers);
		if (this.hang) return new Promise((_, reject) => signal?.addEventListener("abort", () => reject(new Error("stopped"))));
		return Promise.resolve({ tools: [...this.tools], problems: [...this.problems] });
	}
	onToolsChanged(listener: (server: string) => void): () => void {
		this.listeners.push(listener);
		return () => undefined;
	}
	changed(server: string): void {
		for (const l of this.listeners) l(server);
	}
}

function chatWith(script: (req: GenerateRequest, i: number) => ScriptStep, source: FakeSource, extra: Partial<ChatServiceOptions> = {}) {
	const adapter = new ScriptedToolAdapter(script);
	const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
	const events: ChatEvent[] = [];
	const vault = recordingTool("read_note", "read", () => "note text");
	const chat = new ChatService({ adapter, sessions, settings: SETTINGS, tools: [vault], mcpTools: source, onEvent: (e) => events.push(e), callIds: ownIds(), approve: () => Promise.resolve("allow"), ...extra });
	const cards = (): ToolCard[] => events.flatMap((e) => (e.type === "tool" ? [e.card] : []));
	const warnings = () => events.flatMap((e) => (e.type === "warning" ? [e] : []));
	return { chat, adapter, sessions, events, cards, warnings };
}

describe("MCP tools in the chat loop", () => {
	it("offers the servers' tools after the vault tools, sorted, with cleaned schemas whose keys are sorted, and runs one", async () => {
		const source = new FakeSource();
		const runs: Record<string, unknown>[] = [];
		source.tools = [
			mcpTool("zeta", "add", { type: "object", additionalProperties: false, $schema: "x", properties: { b: { type: "number" }, a: { type: "number" } }, required: ["a", "b"] }, (args) => (runs.push(args), Promise.resolve("3"))),
			mcpTool("alpha", "echo", { properties: { message: { type: "string" } } }),
		];
		const c = call("zeta__add", { a: 1, b: 2 });
		const { chat, adapter, cards } = chatWith((_r, i) => (i === 0 ? { calls: [c] } : { text: "It is 3." }), source);
		await chat.sendMessage("Add 1 and 2.");
		const offered = adapter.chatRequests[0]?.tools ?? [];
		expect(offered.map((t) => t.name)).toEqual(["read_note", "alpha__echo", "zeta__add"]);
		expect(JSON.stringify(offered[2]?.parameters)).toBe('{"properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"type":"object"}');
		expect(runs).toEqual([{ a: 1, b: 2 }]);
		const done = cards().filter((k) => k.state === "done");
		expect(done[0]?.mcp).toEqual({ server: "zeta", tool: "add", annotations: { readOnlyHint: true } });
		expect(source.asked).toEqual([undefined]);
	});

	it("asks for the agent's servers when the chat has one", async () => {
		const source = new FakeSource();
		const { chat } = chatWith(() => ({ text: "Hi." }), source, { mcpServers: () => ["github"] });
		await chat.sendMessage("Hello");
		expect(source.asked).toEqual([["github"]]);
	});

	it("says a server's problem as a warning, once per chat, and answers without its tools", async () => {
		const source = new FakeSource();
		source.problems = [{ server: "github", message: "it never answered initialize" }];
		const { chat, adapter, warnings } = chatWith(() => ({ text: "Hi." }), source);
		await chat.sendMessage("Hello");
		await chat.sendMessage("Again");
		expect(warnings().filter((w) => w.code === "mcp_server_unavailable")).toEqual([expect.objectContaining({ params: { server: "github" }, detail: "it never answered initialize" })]);
		expect(adapter.chatRequests[0]?.tools?.map((t) => t.name)).toEqual(["read_note"]);
	});

	it("a source that throws is a warning too, never a failed message", async () => {
		const source = new FakeSource();
		source.toolsFor = () => Promise.reject(new Error("hub broke"));
		const { chat, warnings } = chatWith(() => ({ text: "Hi." }), source);
		const answer = await chat.sendMessage("Hello");
		expect(answer.content).toBe("Hi.");
		expect(warnings().some((w) => w.code === "mcp_server_unavailable" && w.detail === "hub broke")).toBe(true);
	});

	it("turns off a tool whose schema cannot be sent, with the reason, and keeps the others", async () => {
		const source = new FakeSource();
		source.tools = [
			mcpTool("fs", "tree", { type: "object", $defs: { n: { type: "object", properties: { kids: { type: "array", items: { $ref: "#/$defs/n" } } } } }, properties: { root: { $ref: "#/$defs/n" } } }),
			mcpTool("fs", "read", { type: "object", properties: { path: { type: "string" } } }),
		];
		const { chat, adapter, warnings } = chatWith(() => ({ text: "Ok." }), source);
		await chat.sendMessage("Hello");
		expect(adapter.chatRequests[0]?.tools?.map((t) => t.name)).toEqual(["read_note", "fs__read"]);
		const off = warnings().find((w) => w.code === "mcp_tools_off");
		expect(off?.params).toEqual({ server: "fs", count: 1 });
		expect(off?.detail).toContain("tree: its schema refers to itself");
	});

	it("shows list_changed at once and applies the new list from the next message, saying what changed", async () => {
		const source = new FakeSource();
		source.tools = [mcpTool("gh", "issues", { type: "object", properties: {} })];
		const { chat, adapter, warnings } = chatWith(() => ({ text: "Ok." }), source);
		await chat.sendMessage("One");
		source.changed("gh");
		expect(warnings().at(-1)).toEqual(expect.objectContaining({ code: "mcp_tools_list_changed", params: { server: "gh" } }));
		source.tools = [mcpTool("gh", "issues", { type: "object", properties: {} }), mcpTool("gh", "delete_repo", { type: "object", properties: {} })];
		await chat.sendMessage("Two");
		expect(adapter.chatRequests[1]?.tools?.map((t) => t.name)).toEqual(["read_note", "gh__delete_repo", "gh__issues"]);
		const changed = warnings().find((w) => w.code === "mcp_tools_changed");
		expect(changed?.params).toEqual({ server: "gh", added: 1, removed: 0, changed: 0 });
		expect(changed?.detail).toBe("added gh__delete_repo");
	});

	it("a new chat is not told the tools changed 'since the last message' (it has none); the chat that saw the old list is", async () => {
		const source = new FakeSource();
		source.tools = [mcpTool("gh", "issues", { type: "object", properties: {} })];
		const { chat, warnings } = chatWith(() => ({ text: "Ok." }), source);
		await chat.sendMessage("One");
		const first = chat.sessionId!;
		// The person turns a tool on in settings, then starts a new chat.
		source.tools = [mcpTool("gh", "issues", { type: "object", properties: {} }), mcpTool("gh", "search", { type: "object", properties: {} })];
		await chat.newSession();
		await chat.sendMessage("Fresh start");
		expect(warnings().filter((w) => w.code === "mcp_tools_changed")).toEqual([]);
		// Back in the first chat, its next message is told what changed since its last one.
		await chat.loadSession(first);
		await chat.sendMessage("Two");
		expect(warnings().filter((w) => w.code === "mcp_tools_changed").map((w) => w.detail)).toEqual(["added gh__search"]);
	});

	it("the preview counts the MCP tools' definitions the last turn offered", async () => {
		const source = new FakeSource();
		source.tools = [mcpTool("gh", "search", { type: "object", properties: { q: { type: "string", description: "x".repeat(2000) } } })];
		const { chat } = chatWith(() => ({ text: "Ok." }), source);
		const before = chat.previewPrompt("next").estimatedTokens;
		await chat.sendMessage("One");
		const after = chat.previewPrompt("next").estimatedTokens;
		expect(after - before).toBeGreaterThan(300);
	});

	it("tools off for the chat: the servers are not even asked", async () => {
		const source = new FakeSource();
		const { chat } = chatWith(() => ({ text: "Ok." }), source);
		await chat.setTools(false);
		await chat.sendMessage("One");
		expect(source.asked).toEqual([]);
	});

	it("Stop while the servers are slow to give their tools frees the chat at once", async () => {
		const source = new FakeSource();
		source.hang = true;
		const { chat } = chatWith(() => ({ text: "Ok." }), source);
		const controller = new AbortController();
		const sent = chat.sendMessage("One", { signal: controller.signal });
		await sleep(20);
		const stoppedAt = performance.now();
		controller.abort();
		const answer = await sent;
		expect(performance.now() - stoppedAt).toBeLessThan(200);
		expect(answer.cancelled).toBe(true);
		expect(chat.busy).toBe(false);
	});

	it("Stop while an MCP tool runs and never answers frees the chat within 200 ms, and the call gets its result", async () => {
		const source = new FakeSource();
		let started!: () => void;
		const running = new Promise<void>((r) => (started = r));
		source.tools = [mcpTool("slow", "wait", { type: "object", properties: {} }, () => (started(), new Promise<string>(() => undefined)))];
		const { chat } = chatWith((_r, i) => (i === 0 ? { calls: [call("slow__wait", {})] } : { text: "never" }), source);
		const controller = new AbortController();
		const sent = chat.sendMessage("Go", { signal: controller.signal });
		await running;
		const stoppedAt = performance.now();
		controller.abort();
		await sent;
		expect(performance.now() - stoppedAt).toBeLessThan(200);
		expect(chat.busy).toBe(false);
		expect(chat.messages.find((m) => m.role === "tool")?.content).toBe("The person stopped the chat while this call ran.");
	});

	it("progress reaches the running card", async () => {
		const source = new FakeSource();
		source.tools = [
			mcpTool("ev", "long", { type: "object", properties: {} }, async (_a, ctx) => {
				ctx.onProgress?.({ progress: 1, total: 4, message: "step 1" });
				await sleep(120);
				ctx.onProgress?.({ progress: 2, total: 4 });
				return "finished";
			}),
		];
		const { chat, cards } = chatWith((_r, i) => (i === 0 ? { calls: [call("ev__long", {})] } : { text: "Done." }), source);
		await chat.sendMessage("Go");
		expect(cards().filter((k) => k.state === "running" && k.progress !== undefined).map((k) => k.progress)).toEqual([{ progress: 1, total: 4, message: "step 1" }, { progress: 2, total: 4 }]);
	});

	it("the newest progress reaches the card even when it came within 100 ms of the last shown and the server then goes quiet", async () => {
		const source = new FakeSource();
		source.tools = [
			mcpTool("ev", "quiet", { type: "object", properties: {} }, async (_a, ctx) => {
				ctx.onProgress?.({ progress: 1, total: 4, message: "step 1" });
				ctx.onProgress?.({ progress: 2, total: 4, message: "step 2" });
				// A long operation: nothing more for a while (the card must not stay on step 1).
				await sleep(300);
				return "finished";
			}),
		];
		const { chat, cards } = chatWith((_r, i) => (i === 0 ? { calls: [call("ev__quiet", {})] } : { text: "Done." }), source);
		await chat.sendMessage("Go");
		const shown = cards().filter((k) => k.state === "running" && k.progress !== undefined).map((k) => k.progress);
		expect(shown.at(-1)).toEqual({ progress: 2, total: 4, message: "step 2" });
		expect(shown.length).toBeLessThanOrEqual(2);
	});

	it("an image result is saved as a file with the result, sent to the model as an image after the results, and reloads", async () => {
		const source = new FakeSource();
		const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
		source.tools = [
			mcpTool("ev", "picture", { type: "object", properties: {} }, (_a, ctx) => {
				ctx.onImages?.([{ mediaType: "image/png", data: png }]);
				return Promise.resolve("[Image: image/png, 70 bytes]");
			}),
		];
		const files = new Map<string, string>();
		const { chat, adapter, sessions } = chatWith((_r, i) => (i === 0 ? { calls: [call("ev__picture", {})] } : { text: "A dot." }), source, {
			saveToolImage: (image, name) => (files.set(`att/${name}`, image.data), Promise.resolve({ path: `att/${name}`, mediaType: image.mediaType, width: 1, height: 1, bytes: 70 })),
			readImage: (path) => Promise.resolve(Uint8Array.from(Buffer.from(files.get(path) ?? "", "base64"))),
		});
		await chat.sendMessage("Show it.");
		const result = chat.messages.find((m) => m.role === "tool");
		expect(result?.attachments).toEqual([{ path: "att/tool-own_1-1.png", mediaType: "image/png", width: 1, height: 1, bytes: 70 }]);
		const sent = adapter.chatRequests[1]?.messages ?? [];
		const at = sent.findIndex((m) => m.role === "tool");
		expect(sent[at]?.images).toBeUndefined();
		expect(sent[at + 1]).toEqual({ role: "user", content: TOOL_IMAGES_NOTE, images: [{ mediaType: "image/png", data: png }] });
		const reloaded = await sessions.load(chat.sessionId ?? "");
		expect(reloaded.messages).toEqual(chat.messages);
	});

	it("a result of an MCP tool is saved with its origin (server and tool), which a reload keeps; a vault tool's result has none", async () => {
		const source = new FakeSource();
		source.tools = [mcpTool("zeta", "add", { type: "object", properties: {} })];
		const { chat, sessions } = chatWith((_r, i) => (i === 0 ? { calls: [call("zeta__add", {}), call("read_note", { path: "a.md" })] } : { text: "Done." }), source);
		await chat.sendMessage("Add.");
		const results = chat.messages.filter((m) => m.role === "tool");
		expect(results.map((m) => m.mcp)).toEqual([{ server: "zeta", tool: "add", annotations: { readOnlyHint: true } }, undefined]);
		const reloaded = await sessions.load(chat.sessionId ?? "");
		expect(reloaded.messages.filter((m) => m.role === "tool").map((m) => m.mcp)).toEqual([{ server: "zeta", tool: "add", annotations: { readOnlyHint: true } }, undefined]);
	});

	it("a result's images are priced inside its share: its text gets what they leave, and images that do not fit are left out, said in the text", async () => {
		const long = Array.from({ length: 3000 }, (_, i) => `Line ${i}: the harbour log notes calm water and a westerly breeze.`).join("\n");
		const run = async (images: number, side: number) => {
			const png = pngHeaderBase64(side);
			const source = new FakeSource();
			source.tools = [
				mcpTool("ev", "shot", { type: "object", properties: {} }, (_a, ctx) => {
					if (images > 0) ctx.onImages?.(Array.from({ length: images }, () => ({ mediaType: "image/png", data: png })));
					return Promise.resolve(long);
				}),
			];
			const saved: string[] = [];
			const { chat, cards } = chatWith((_r, i) => (i === 0 ? { calls: [call("ev__shot", {})] } : { text: "Seen." }), source, {
				saveToolImage: (image, name) => (saved.push(name), Promise.resolve({ path: `att/${name}`, mediaType: image.mediaType, width: side, height: side, bytes: 70 })),
				readImage: () => Promise.resolve(Uint8Array.from(Buffer.from(png, "base64"))),
			});
			await chat.sendMessage("Look.");
			const result = chat.messages.find((m) => m.role === "tool");
			return { text: result?.content ?? "", attachments: result?.attachments ?? [], card: cards().find((c) => c.state === "done"), saved };
		};
		const imageCost = imageTokens({ width: 800, height: 800 });
		const plain = await run(0, 800);
		const withImage = await run(1, 800);
		expect(withImage.attachments).toHaveLength(1);
		// The text gave up the image's price (a few tokens of give for where a cut lands).
		expect(estimateTokens(plain.text) - estimateTokens(withImage.text)).toBeGreaterThanOrEqual(imageCost - 20);
		// Four large images cannot all fit beside the text: the ones that do are kept, the rest said.
		const many = await run(4, 1500);
		expect(many.attachments.length).toBeLessThan(4);
		expect(many.text).toMatch(/\[\d images? from this result (was|were) left out: (it|they) did not fit the room the result has in the prompt\.\]$/);
		expect(many.card?.images ?? []).toEqual(many.attachments);
		// What is left out was never written: a file for each image kept, none for the others.
		expect(many.saved).toEqual(many.attachments.map((a) => a.path.slice("att/".length)));
	});
});
