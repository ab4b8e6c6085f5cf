// Counting stays honest under a server's cache: a 40-turn chat against an Ollama stub on
// 127.0.0.1 (the real adapter, the real engine and calibration) for each way Ollama versions
// have reported `prompt_eval_count` of a prompt whose prefix was cached: the whole prompt (and
// since ollama#17943 its cached part too), only the newly evaluated tokens (before #16428),
// nothing (#2068, #3427), 0 (the OpenAI bridge, #5370). With each, no prompt goes over the window
// and the window is used as with whole counts.
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import { TokenCalibration } from "../../src/chat/calibration";
import { promptCost } from "../../src/chat/promptCost";
import { estimateTokens } from "../../src/chat/tokens";
import type { PromptMessage } from "../../src/core/types";
import { createAdapter } from "../../src/providers";
import { fetchTransport } from "../../src/providers/transport";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { useProviderServer } from "../support/transports";
import { CHAT_PATHS, headersFor } from "../support/providerStreams";
import type { RecordedRequest } from "../support/providerServer";
import { answerInfoRows } from "../../src/ui/panel/AnswerInfo";

type Style = "whole" | "parts" | "newOnly" | "missing" | "zero";

const WINDOW = 4096;
const RESERVED = 512;
/** The stub's tokenizer counts 10% more than the engine's estimate. */
const RATIO = 1.1;
const ANSWER = "The note says that the river runs past the old mill, and the mill has stood there since the war; ".repeat(6);

interface Served {
	purpose: "chat" | "summary";
	whole: number;
	overflowed: boolean;
}

/** The stub's count of a prompt: the messages' estimate × RATIO. */
const tokensOf = (messages: readonly PromptMessage[]): number => Math.round(promptCost(messages, estimateTokens) * RATIO);

function stub(style: Style, served: Served[]): (req: RecordedRequest) => { headers: Record<string, string>; body: string } {
	let cached: string[] = [];
	return (req) => {
		const body = req.json as { messages: { role: PromptMessage["role"]; content: string }[] };
		const messages = body.messages.map((m) => ({ role: m.role, content: m.content }));
		const keys = messages.map((m) => JSON.stringify(m));
		let shared = 0;
		while (shared < keys.length && shared < cached.length && keys[shared] === cached[shared]) shared++;
		cached = keys;
		const whole = tokensOf(messages);
		const fresh = whole - tokensOf(messages.slice(0, shared));
		const summary = messages.some((m) => m.content.includes("summar"));
		served.push({ purpose: summary ? "summary" : "chat", whole, overflowed: whole + RESERVED > WINDOW });
		const counts: Record<string, number> = { eval_count: 40 };
		if (style === "whole") counts.prompt_eval_count = whole;
		if (style === "parts") Object.assign(counts, { prompt_eval_count: whole, prompt_eval_cached_count: whole - fresh });
		if (style === "newOnly") counts.prompt_eval_count = fresh;
		if (style === "missing" && shared === 0) counts.prompt_eval_count = whole;
		if (style === "zero") counts.prompt_eval_count = shared === 0 ? whole : 0;
		const at = "2026-11-28T10:00:00Z";
		const lines = [
			{ model: "m", created_at: at, message: { role: "assistant", content: summary ? "A short summary of the earlier talk." : ANSWER }, done: false },
			{ model: "m", created_at: at, message: { role: "assistant", content: "" }, done: true, done_reason: "stop", ...counts },
		];
		return { headers: headersFor("ollama"), body: lines.map((l) => JSON.stringify(l) + "\n").join("") };
	};
}

describe("prompt counts under a server's cache, 40 turns", () => {
	const env = useProviderServer(() => Promise.resolve(fetchTransport));

	async function run(style: Style): Promise<{ uses: number[]; served: Served[]; calibration: TokenCalibration; warnings: string[] }> {
		const served: Served[] = [];
		const warnings: string[] = [];
		env.server.route("POST", CHAT_PATHS.ollama, stub(style, served));
		const calibration = new TokenCalibration();
		const chat = new ChatService({
			adapter: createAdapter({ provider: "ollama", baseUrl: env.server.url, model: "m", transport: env.transport }),
			sessions: new SessionManager(new MemoryFileStore(), { onWarning: () => undefined }),
			model: "m",
			calibration,
			settings: { maxPromptTokens: WINDOW, reservedResponseTokens: RESERVED },
			onEvent: (e) => {
				if (e.type === "warning") warnings.push(e.code ?? e.message);
			},
		});
		const uses: number[] = [];
		for (let turn = 0; turn < 40; turn++) {
			await chat.sendMessage(`Question ${turn}: what does the note say about the mill, and about the river near it?`);
			const last = served.filter((s) => s.purpose === "chat").at(-1);
			if (last !== undefined) uses.push((last.whole + RESERVED) / WINDOW);
		}
		return { uses, served, calibration, warnings };
	}

	for (const style of ["whole", "parts", "newOnly", "missing", "zero"] as Style[]) {
		it(`${style}: no prompt over the window, and the window used as with whole counts`, async () => {
			const { uses, served, calibration, warnings } = await run(style);
			expect(served.filter((s) => s.overflowed)).toEqual([]);
			// What was learned is the server's real ratio, never a count that left the cached part out.
			expect(calibration.factor("m")).toBeGreaterThan(RATIO * 0.98);
			// Once the chat fills the window (turn 20 on), every prompt uses most of it.
			expect(Math.min(...uses.slice(20))).toBeGreaterThan(0.93);
			// A count that left the cached part out is not taken for a server that cut the prompt.
			expect(warnings.filter((w) => w === "silent_prompt_cut")).toEqual([]);
		}, 120_000);
	}

	it("newOnly: a count set aside as leaving out the cache is not shown as the prompt's size; the estimate is, with the count beside it", async () => {
		const served: Served[] = [];
		env.server.route("POST", CHAT_PATHS.ollama, stub("newOnly", served));
		const chat = new ChatService({
			adapter: createAdapter({ provider: "ollama", baseUrl: env.server.url, model: "m", transport: env.transport }),
			sessions: new SessionManager(new MemoryFileStore(), { onWarning: () => undefined }),
			model: "m",
			calibration: new TokenCalibration(),
			settings: { maxPromptTokens: WINDOW, reservedResponseTokens: RESERVED },
		});
		const answers = [];
		for (let turn = 0; turn < 4; turn++) answers.push(await chat.sendMessage(`Question ${turn}: what does the note say about the mill?`));
		const stats = answers.at(-1)?.stats;
		const fresh = served.filter((s) => s.purpose === "chat").length;
		expect(fresh).toBe(4);
		// The server counted only the new tokens of a prompt that repeated the previous one.
		expect(stats?.promptCountSetAside).toBeGreaterThan(0);
		expect(stats?.reported.prompt).toBe(false);
		expect(stats!.promptTokens).toBeGreaterThan(stats!.promptCountSetAside! * 2);
		const row = answerInfoRows(stats!, undefined, undefined)[0]![1];
		expect(row).toContain(stats!.promptTokens.toLocaleString("en-US"));
		expect(row).toContain("estimated");
		expect(row).not.toContain("reported by the server");
	});
});
