// Calibration on a tokenizer Discover's estimator has never seen (a subset of Qwen2's): a 40-turn
// chat about a long multilingual note at `-c 2048` with 256 reserved. Once the first 5 answers have
// reported usage, the prompts sent when something had to be left out use at least 0.9 of the
// window (the server's count plus the reserve); no request is refused except ones the one retry
// recovers; the first is not refused at all, the server having counted it before it was sent.
// Judged by the server's counts only.
import { expect, it } from "vitest";
import { estimateTokens } from "../../src/chat/tokens";
import { fetchTransport } from "../../src/providers/transport";
import { figure, MODEL, realChat, recording, serverTokens } from "./engine";
import { serverUrl } from "./servers";

const WINDOW = 2048;
const RESERVED = 256;
const TURNS = 40;
const WARMUP = 5;

const PARAGRAPHS = [
	"The harbour town keeps a ledger of every ship that passes the lighthouse, with the cargo, the crew and the weather of the day.",
	"Der Hafen führt ein Buch über jedes Schiff, das am Leuchtturm vorbeifährt, mit Ladung, Mannschaft und dem Wetter des Tages.",
	"הנמל מנהל יומן של כל ספינה שעוברת ליד המגדלור, עם המטען, הצוות ומזג האוויר של אותו יום.",
	"يحتفظ الميناء بسجل لكل سفينة تمر بالمنارة، مع الحمولة والطاقم وحالة الطقس في ذلك اليوم.",
	"Ledger 1887-03-14: 4471 barrels, 1290 crates, 36 crew, wind 270 at 18 knots, pressure 1013.2 hPa.",
	"Le port tient un registre de chaque navire qui passe devant le phare, avec la cargaison, l'équipage et la météo du jour.",
];
const NOTE = Array.from({ length: 48 }, (_, i) => `## Entry ${i + 1}\n\n${PARAGRAPHS[i % PARAGRAPHS.length] ?? ""}`).join("\n\n");
const QUESTIONS = ["What does entry {n} say about the cargo?", "Who kept the ledger in entry {n}?", "Was the weather good in entry {n}?", "Summarize entry {n} in one line."];

const quantile = (xs: number[], q: number): number => {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

it("a 40-turn chat at -c 2048: window use when cutting ≥ 0.9 after 5 answers, no refusal left unrecovered", async () => {
	const url = serverUrl("chat");
	// The estimator's error on this tokenizer, text by text, before any calibration.
	const perLanguage = await Promise.all(PARAGRAPHS.map(async (p) => Math.round(((await serverTokens(url, p)) / estimateTokens(p)) * 100) / 100));
	figure("server ÷ estimate per paragraph (en, de, he, ar, digits, fr), uncalibrated", perLanguage);

	const transport = recording(fetchTransport);
	let leftOut = false;
	let estimate = 0;
	const { chat, calibration } = realChat(url, transport, { maxPromptTokens: WINDOW, reservedResponseTokens: RESERVED }, {
		onEvent: (e) => {
			if (e.type === "prompt") {
				estimate = e.estimatedTokens;
				leftOut ||= e.context.included !== "whole";
			}
			if (e.type === "compacted") leftOut = true;
		},
	});
	const turns: { turn: number; use: number; leftOut: boolean; ratio: number; refused: number; margin: number }[] = [];
	const started = Date.now();
	for (let t = 0; t < TURNS; t++) {
		leftOut = false;
		const question = (QUESTIONS[t % QUESTIONS.length] ?? "?").replace("{n}", String((t % 48) + 1));
		const answer = await chat.sendMessage(question, { context: NOTE, contextName: "Harbour ledger.md" });
		// The tiny model sometimes rambles to the end of its room (256 tokens): that answer is cut, by
		// the model's choice. Cut earlier, it would have met the end of the window: the prompt's fault.
		if (answer.error !== undefined) {
			expect(answer.error).toMatch(/cut off/);
			expect(answer.stats?.answerTokens).toBe(RESERVED);
		}
		expect(answer.stats?.reported.prompt).toBe(true);
		const prompt = answer.stats?.promptTokens ?? 0;
		turns.push({ turn: t + 1, use: (prompt + RESERVED) / WINDOW, leftOut, ratio: prompt / estimate, refused: answer.stats?.refused ?? 0, margin: calibration.margin(MODEL, chat.sessionId).share });
	}
	const elapsed = Date.now() - started;
	// The same paragraphs, estimated as the calibrated engine estimates them after the chat.
	const calibrated = chat.sourceEstimator();
	const perLanguageAfter = await Promise.all(PARAGRAPHS.map(async (p) => Math.round(((await serverTokens(url, p)) / calibrated(p)) * 100) / 100));
	figure("server ÷ estimate per paragraph (en, de, he, ar, digits, fr), calibrated after 40 turns", perLanguageAfter);
	const refusals = transport.statuses.filter((s) => s === 400).length;
	const cutting = turns.filter((t) => t.turn > WARMUP && t.leftOut);
	const uses = cutting.map((t) => t.use);
	figure("40-turn chat", {
		seconds: Math.round(elapsed / 100) / 10,
		refusedRequests: refusals,
		overWindowTurns: turns.filter((t) => t.refused > 0).map((t) => t.turn),
		intoReserveTurns: turns.filter((t) => t.use > 1).map((t) => t.turn),
		firstRatio: Math.round((turns[0]?.ratio ?? 0) * 100) / 100,
		medianRatioAfter5: Math.round(quantile(turns.slice(WARMUP).map((t) => t.ratio), 0.5) * 100) / 100,
		useWhenCuttingAfter5: { median: Math.round(quantile(uses, 0.5) * 1000) / 1000, p10: Math.round(quantile(uses, 0.1) * 1000) / 1000, min: Math.round(Math.min(...uses) * 1000) / 1000, turns: uses.length },
		uses: turns.map((t) => Math.round(t.use * 100) / 100),
		margins: turns.map((t) => Math.round(t.margin * 1000) / 1000),
	});
	// The note is larger than the window: from turn 6 on, every turn cuts something.
	expect(cutting.length).toBeGreaterThanOrEqual(TURNS - WARMUP - 2);
	// The server counted the first prompt before it was sent (the model was new): turn 1 is not refused.
	expect(transport.urls.filter((u) => u.endsWith("/v1/chat/completions/input_tokens"))).toHaveLength(1);
	expect(turns[0]?.refused ?? 0).toBe(0);
	// Every refusal was a turn's first request, recovered by its one retry (no turn failed above).
	expect(refusals).toBe(turns.reduce((n, t) => n + t.refused, 0));
	expect(turns.every((t) => t.refused <= 1)).toBe(true);
	// Every answered prompt fitted the window, and its answer kept most of its reserve: llama.cpp
	// refuses only a prompt over the window, so a late estimate that is a few tokens short is
	// answered with a little less room (seen: 11 tokens of 256, use 1.005). Bounded at 5% of the window.
	expect(Math.max(...turns.map((t) => t.use - RESERVED / WINDOW))).toBeLessThan(1);
	expect(Math.max(...turns.map((t) => t.use))).toBeLessThanOrEqual(1.05);
	expect(quantile(uses, 0.5)).toBeGreaterThanOrEqual(0.9);
	expect(Math.min(...uses)).toBeGreaterThanOrEqual(0.9);
}, 300_000);
