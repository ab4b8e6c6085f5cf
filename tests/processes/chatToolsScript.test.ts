// `npm run chat -- --tools --vault DIR` as a person runs it: a real process against a local Ollama
// protocol server that answers with tool calls; input is piped, so writes are declined, said so.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderServer } from "../support/providerServer";
import { JSON_HEADERS, NDJSON_HEADERS, ollamaStream } from "../support/providerStreams";
import { parseChatArgs, resumeCommand, USAGE } from "../../scripts/chatArgs";
import { NOT_INTERACTIVE_NOTE } from "../../scripts/chatTools";
import { runChat } from "../support/liveChat";

/** One Ollama answer that calls `name` with `args` (a whole call in one chunk, as Ollama sends it). */
function ollamaToolCall(name: string, args: Record<string, unknown>): string {
	const at = "2025-10-26T17:15:24.097767Z";
	return [
		{ model: "llama3.2", created_at: at, message: { role: "assistant", content: "", tool_calls: [{ function: { name, arguments: args } }] }, done: false },
		{ model: "llama3.2", created_at: at, message: { role: "assistant", content: "" }, done_reason: "stop", done: true, prompt_eval_count: 30, eval_count: 5 },
	]
		.map((l) => `${JSON.stringify(l)}\n`)
		.join("");
}

describe("npm run chat -- --tools", () => {
	let server: ProviderServer;
	let dir: string;
	beforeAll(async () => {
		server = await ProviderServer.start();
		server.route("GET", "/api/tags", { headers: JSON_HEADERS, body: JSON.stringify({ models: [{ name: "llama3.2:latest" }] }) });
		dir = await mkdtemp(join(tmpdir(), "discover-chat-tools-script-"));
	});
	afterAll(async () => {
		await server.close();
		await rm(dir, { recursive: true, force: true });
	});

	it("offers the six tools, runs a read, and with piped input declines a write with a printed note, leaving the folder as it was", async () => {
		const vault = join(dir, "vault");
		await mkdir(join(vault, "Projects"), { recursive: true });
		await writeFile(join(vault, "Projects", "Plan.md"), "We ship the garden app in May.\n");
		server.requests.length = 0;
		server.once("POST", "/api/chat", { headers: NDJSON_HEADERS, body: ollamaToolCall("read_note", { path: "Projects/Plan.md" }) });
		server.once("POST", "/api/chat", { headers: NDJSON_HEADERS, body: ollamaToolCall("create_note", { path: "Ideas.md", content: "Ponds." }) });
		server.once("POST", "/api/chat", { headers: NDJSON_HEADERS, body: ollamaStream(["It ships in May."]) });

		const run = await runChat(["--model", "llama3.2", "--base-url", server.url, "--dir", join(dir, "home"), "--vault", vault, "--tools"], "When do we ship?\n");

		expect(run.code).toBe(0);
		const out = `${run.stdout}\n${run.stderr}`;
		expect(out).toMatch(/Indexed 1 notes in .*vault/);
		expect(out).toContain("[tool] read_note done:");
		expect(out).toContain("create_note wants to change Ideas.md:");
		expect(out).toContain("  +Ponds.");
		expect(out).toContain(NOT_INTERACTIVE_NOTE);
		expect(out).toContain("It ships in May.");
		expect(existsSync(join(vault, "Ideas.md"))).toBe(false);
		const chats = server.requests.filter((r) => r.path === "/api/chat").map((r) => r.json as { tools?: { function: { name: string } }[]; messages: { role: string; content: string }[] });
		expect(chats).toHaveLength(3);
		expect(chats[0]?.tools?.map((t) => t.function.name).sort()).toEqual(["create_note", "edit_note", "get_active_note", "list_notes", "read_note", "search_notes"]);
		expect(chats[1]?.messages.some((m) => m.role === "tool" && m.content.includes("We ship the garden app in May."))).toBe(true);
		expect(chats[2]?.messages.some((m) => m.role === "tool" && m.content.includes("The person declined: the terminal chat cannot ask"))).toBe(true);
		expect(await readFile(join(vault, "Projects", "Plan.md"), "utf8")).toBe("We ship the garden app in May.\n");
	}, 120000);

	it("without --tools, no tools are offered", async () => {
		const vault = join(dir, "plain");
		await mkdir(vault);
		await writeFile(join(vault, "A.md"), "Alpha.\n");
		server.requests.length = 0;
		server.once("POST", "/api/chat", { headers: NDJSON_HEADERS, body: ollamaStream(["Hi."]) });
		const run = await runChat(["--model", "llama3.2", "--base-url", server.url, "--dir", join(dir, "home2"), "--vault", vault], "Hello\n");
		expect(run.code).toBe(0);
		const body = server.requests.find((r) => r.path === "/api/chat")?.json as { tools?: unknown[] };
		expect(body.tools ?? []).toEqual([]);
	}, 120000);

	it("--tools needs --vault, is documented in --help, and is kept in the resume command", () => {
		expect(parseChatArgs(["--model", "x", "--tools"])).toEqual({ ok: false, error: "--tools needs --vault <folder>: the folder of notes the tools work on." });
		const parsed = parseChatArgs(["--model", "x", "--vault", "v", "--tools"]);
		expect(parsed).toMatchObject({ ok: true, args: { vault: "v", tools: true } });
		if (parsed.ok) expect(resumeCommand(parsed.args, "01AB")).toContain("--vault v --tools");
		expect(USAGE).toMatch(/--tools {2,}let the model use the vault tools/);
		expect(USAGE).toContain("Allow? [y/N/reason]");
	});
});
