// @vitest-environment happy-dom
// A server that reuses call ids. The panel's engine (createChatRuntime) over
// the test vault, against a local model server that names every call `call_0`, in each dialect:
// each call gets the engine's own id, so Revert of the first write restores A (not B), B's write
// can still be reverted, and two chats of one panel (which share one change journal) never mix
// their writes. The server's id goes back only to the server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp } from "../obsidian/harness";
import { ProviderServer, type RecordedRequest } from "../support/providerServer";
import { baseUrlFor, type Dialect } from "../support/providerStreams";
import { serveToolSteps } from "../support/toolServer";
import type { StreamedCall } from "../support/toolStreams";
import { createChatRuntime } from "../../src/wiring/chatRuntime";
import type { DiscoverHost } from "../../src/ui/host";
import type { ChatEvent } from "../../src/ui/ports";
import type { ToolCard } from "../../src/chat/toolCard";
import { testSettings } from "../ui/fakes";

const A = "# A\n\nalpha\n";
const B = "# B\n\nbeta\n";

let server: ProviderServer;
beforeAll(async () => {
	server = await ProviderServer.start();
});
afterAll(() => server.close());

const edit = (path: string, from: string, to: string): StreamedCall => ({ id: "call_0", name: "edit_note", args: JSON.stringify({ path, mode: "replace", old_text: from, new_text: to }) });

/** The server plays `steps` in order, one per chat request: calls (all named call_0) or a final answer. */
const serve = (dialect: Dialect, steps: (StreamedCall[] | string)[]) => serveToolSteps(server, dialect, steps);

async function panelEngine(dialect: Dialect) {
	const app = await createTestApp({ files: { "A.md": A, "B.md": B } });
	const settings = testSettings({ provider: dialect, baseUrl: baseUrlFor(dialect, server.url), model: "m", includeActiveNote: false });
	const host: DiscoverHost = { app: asObsidianApp(app), settings, saveSettings: () => Promise.resolve() };
	const events: ChatEvent[] = [];
	const runtime = await createChatRuntime(host, (e) => events.push(e), { ask: () => Promise.resolve({ kind: "once" }) });
	const doneWrites = (): ToolCard[] => events.flatMap((e) => (e.type === "tool" && e.card.state === "done" && e.card.name === "edit_note" ? [e.card] : []));
	const read = (path: string) => app.vault.adapter.read(path);
	return { app, host, runtime, doneWrites, read };
}

/** What the dialect sent back as the id of the result of the call: the server's own id, as it expects. */
function answeredIds(dialect: Dialect, req: RecordedRequest): string[] {
	const body = req.json as { messages: { role: string; tool_call_id?: string; content?: unknown }[] };
	if (dialect === "anthropic") {
		return body.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string; tool_use_id?: string }[]).filter((b) => b.type === "tool_result").map((b) => b.tool_use_id ?? "") : []));
	}
	return body.messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id ?? "");
}

for (const dialect of ["openai", "anthropic", "ollama"] as const) {
	describe(`a ${dialect} server that names every call call_0`, () => {
		it("in one chat: each write has its own id, Revert of the first restores A (not B), and B's write can still be reverted", async () => {
			const chats = serve(dialect, [[edit("A.md", "alpha", "ALPHA")], [edit("B.md", "beta", "BETA")], "Done."]);
			const { runtime, doneWrites, read } = await panelEngine(dialect);
			await runtime.chat.newSession();
			await runtime.chat.sendMessage("Shout both");
			expect(await read("A.md")).toBe("# A\n\nALPHA\n");
			expect(await read("B.md")).toBe("# B\n\nBETA\n");
			const [first, second] = doneWrites();
			expect(first!.id).not.toBe(second!.id);
			expect([first!.id, second!.id]).not.toContain("call_0");

			await expect(runtime.tools!.revert(first!.id)).resolves.toEqual({ ok: true });
			expect(await read("A.md")).toBe(A);
			expect(await read("B.md")).toBe("# B\n\nBETA\n");
			expect(runtime.tools!.canRevert(second!.id)).toBe(true);
			await expect(runtime.tools!.revert(second!.id)).resolves.toEqual({ ok: true });
			expect(await read("B.md")).toBe(B);

			// The server is answered with its own id, every time.
			const sent = chats();
			expect(answeredIds(dialect, sent[1]!)).toEqual(["call_0"]);
			expect(answeredIds(dialect, sent[2]!)).toEqual(["call_0", "call_0"]);
		});

		it("across two chats of one panel (one journal): Revert of the first chat's write restores A, the second's B", async () => {
			serve(dialect, [[edit("A.md", "alpha", "ALPHA")], "Done.", [edit("B.md", "beta", "BETA")], "Done."]);
			const { runtime, doneWrites, read } = await panelEngine(dialect);
			await runtime.chat.newSession();
			await runtime.chat.sendMessage("Shout A");
			await runtime.chat.newSession();
			await runtime.chat.sendMessage("Shout B");
			const [inFirst, inSecond] = doneWrites();
			expect(inFirst!.id).not.toBe(inSecond!.id);
			await expect(runtime.tools!.revert(inFirst!.id)).resolves.toEqual({ ok: true });
			expect(await read("A.md")).toBe(A);
			expect(await read("B.md")).toBe("# B\n\nBETA\n");
			await expect(runtime.tools!.revert(inSecond!.id)).resolves.toEqual({ ok: true });
			expect(await read("B.md")).toBe(B);
		});
	});
}

describe("the saved chat", () => {
	it("records the engine's id on the call and its result, and the server's id beside the call only", async () => {
		serve("openai", [[edit("A.md", "alpha", "ALPHA")], "Done."]);
		const { app, host, runtime, doneWrites } = await panelEngine("openai");
		await runtime.chat.newSession();
		await runtime.chat.sendMessage("Shout A");
		const id = doneWrites()[0]!.id;
		const file = await app.vault.adapter.read(`${host.settings.sessionsFolder}/sessions/${runtime.chat.sessionId}.jsonl`);
		const records = file.trim().split("\n").map((l) => JSON.parse(l) as { message?: { role: string; toolCalls?: { id: string; serverId?: string }[]; toolCallId?: string } });
		const calls = records.flatMap((r) => r.message?.toolCalls ?? []);
		expect(calls).toEqual([expect.objectContaining({ id, serverId: "call_0" })]);
		expect(records.flatMap((r) => (r.message?.role === "tool" ? [r.message.toolCallId] : []))).toEqual([id]);
	});
});
