// @vitest-environment happy-dom
// Unbounded calls. The panel's engine (createChatRuntime) over the test
// vault, against a local Ollama-like server that asks for 40 read_note calls of a large note in every
// answer, for all 8 rounds: at most 16 calls a round run, each of the others gets an error result
// saying so, and the turn's results saved in the chat file stay within 2 MB (the one that would
// pass it is cut, with a note). Counts and bytes, never timings.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp } from "../obsidian/harness";
import { ProviderServer } from "../support/providerServer";
import { toolCallStream, toolHeaders } from "../support/toolStreams";
import { createChatRuntime } from "../../src/wiring/chatRuntime";
import type { DiscoverHost } from "../../src/ui/host";
import type { ChatMessage } from "../../src/core/types";
import { MAX_CALLS_A_ROUND, TOO_MANY_CALLS } from "../../src/chat/toolRound";
import { MAX_TURN_RESULT_BYTES, TURN_RESULTS_CUT_NOTE } from "../../src/chat/turnResultBytes";
import { DEFAULT_MAX_TOOL_ROUNDS } from "../../src/chat/chatSettings";
import { testSettings } from "../ui/fakes";

const CALLS_AN_ANSWER = 40;
// 16,000 characters of three UTF-8 bytes each: one read_note page is about 48 kB.
const BIG = Array.from({ length: 800 }, (_, i) => `${"漢字仮名交じり文".repeat(2)}${String(i % 10)}`).join("\n");
const DONE = ['{"model":"m","message":{"role":"assistant","content":"Done."},"done":false}', '{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":40,"eval_count":2}', ""].join("\n");

let server: ProviderServer;
beforeAll(async () => {
	server = await ProviderServer.start();
});
afterAll(() => server.close());

const bytes = (text: string): number => new TextEncoder().encode(text).length;

describe("a server that asks for 40 calls in every answer, for 8 rounds", () => {
	it("runs at most 16 a round, answers each of the others with an error saying so, and saves at most 2 MB of results for the turn", async () => {
		server.route("POST", "/api/show", { status: 404, body: "{}" });
		server.route("POST", "/api/chat", (req) => {
			const offered = Array.isArray((req.json as { tools?: unknown[] }).tools);
			if (!offered) return { headers: { "content-type": "application/x-ndjson" }, body: DONE };
			const calls = Array.from({ length: CALLS_AN_ANSWER }, (_, i) => ({ id: `call_${i}`, name: "read_note", args: JSON.stringify({ path: "Big.md" }) }));
			return { headers: toolHeaders("ollama"), body: toolCallStream("ollama", { calls }) };
		});
		const app = await createTestApp({ files: { "Big.md": BIG } });
		const settings = testSettings({ provider: "ollama", baseUrl: server.url, model: "m", includeActiveNote: false, maxPromptTokens: 4_000_000, reservedResponseTokens: 1024 });
		const host: DiscoverHost = { app: asObsidianApp(app), settings, saveSettings: () => Promise.resolve() };
		const runtime = await createChatRuntime(host, () => undefined, { ask: () => Promise.resolve({ kind: "deny" }) });
		await runtime.chat.newSession();
		const answer = await runtime.chat.sendMessage("Read it all");
		expect(answer.content).toBe("Done.");

		const file = await app.vault.adapter.read(`${settings.sessionsFolder}/sessions/${runtime.chat.sessionId}.jsonl`);
		const messages = file
			.trim()
			.split("\n")
			.map((l) => (JSON.parse(l) as { message?: ChatMessage }).message)
			.filter((m): m is ChatMessage => m !== undefined);
		const results = messages.filter((m) => m.role === "tool");
		const rounds = DEFAULT_MAX_TOOL_ROUNDS;
		// Every call has its result.
		expect(results).toHaveLength(CALLS_AN_ANSWER * rounds);
		const notRun = results.filter((m) => m.content === TOO_MANY_CALLS);
		expect(notRun).toHaveLength((CALLS_AN_ANSWER - MAX_CALLS_A_ROUND) * rounds);
		expect(notRun.every((m) => m.isError === true)).toBe(true);
		// What ran: the first 16 of each answer, nothing after.
		const ran = results.filter((m) => m.content !== TOO_MANY_CALLS);
		expect(ran).toHaveLength(MAX_CALLS_A_ROUND * rounds);
		const calls = messages.flatMap((m) => m.toolCalls ?? []);
		const byId = new Map(calls.map((c, i) => [c.id, i % CALLS_AN_ANSWER]));
		expect(ran.every((m) => (byId.get(m.toolCallId ?? "") ?? Infinity) < MAX_CALLS_A_ROUND)).toBe(true);

		// The results saved for the turn: within 2 MB but for the short notes; the one that passed it was cut, saying so.
		const ranBytes = ran.reduce((n, m) => n + bytes(m.content), 0);
		const notes = ran.filter((m) => m.content.includes(TURN_RESULTS_CUT_NOTE));
		expect(notes.length).toBeGreaterThan(0);
		expect(ranBytes + notRun.reduce((n, m) => n + bytes(m.content), 0)).toBeLessThanOrEqual(MAX_TURN_RESULT_BYTES + (notes.length + notRun.length) * bytes(TURN_RESULTS_CUT_NOTE));
		// Whole results before the cut: the limit is used, not thrown away.
		expect(ranBytes).toBeGreaterThan(MAX_TURN_RESULT_BYTES * 0.9);
		// The chat file: the results, the calls and the records around them.
		expect(bytes(file)).toBeLessThan(MAX_TURN_RESULT_BYTES + 400_000);
	});
});
