// @vitest-environment happy-dom
// The info button under an answer and its popover: tokens (reported or estimated), time to the
// first token, tokens per second, the model, the requests of a tool loop, and the cost of the
// answer and the chat when the model is priced; notes on the turn's summary of earlier messages
// and a request refused as too long. Escape closes it and gives the focus back.
import { afterEach, describe, expect, it } from "vitest";
import { flush, pressKey, typeInto } from "../obsidian/harness";
import { mountView, type Mounted } from "./mountView";
import { setLanguage } from "../../src/i18n";
import type { AnswerStats } from "../../src/core/types";
import type { PanelSettings } from "../../src/ui/host";

let mounted: Mounted | undefined;
afterEach(async () => {
	mounted?.leaf.detach();
	await flush();
	document.body.empty();
	setLanguage("en");
	mounted = undefined;
});

const STATS: AnswerStats = { promptTokens: 12_000, answerTokens: 800, reported: { prompt: true, answer: false }, firstTokenMs: 420, streamMs: 4000, durationMs: 4420, requests: 1, model: "gpt-4o-mini" };

async function answered(stats: AnswerStats | undefined, settings: Partial<PanelSettings> = {}, questions = 1): Promise<Mounted> {
	const m = (mounted = await mountView({ settings }));
	for (let i = 0; i < questions; i++) {
		typeInto(m.input(), `Question ${i}`);
		pressKey(m.input(), "Enter");
		await flush();
		m.chat.token("An answer.");
		m.chat.finish(stats ? { stats } : {});
		await flush();
	}
	return m;
}

const infoButton = (m: Mounted, index = 1): HTMLButtonElement | null => m.messages()[index]?.querySelector<HTMLButtonElement>("button.discover-chat-answer-info") ?? null;
const popover = (m: Mounted): HTMLElement | null => m.root.querySelector<HTMLElement>(".discover-chat-stats-popover");
const rows = (m: Mounted): Record<string, string> =>
	Object.fromEntries(Array.from(popover(m)?.querySelectorAll(".discover-chat-stats-row") ?? []).map((r) => [r.querySelector("dt")?.textContent ?? "", r.querySelector("dd")?.textContent ?? ""]));

const notes = (m: Mounted): string[] => Array.from(popover(m)?.querySelectorAll(".discover-chat-stats-note") ?? []).map((n) => n.textContent ?? "");

describe("the answer's info popover", () => {
	it("an answer with stats has an info button with an icon, a label and a tooltip; one without has none", async () => {
		const m = await answered(STATS);
		const button = infoButton(m);
		expect(button?.getAttr("aria-label")).toBe("Answer details");
		expect(button?.querySelector("svg")).not.toBeNull();
		expect(button?.getAttr("aria-expanded")).toBe("false");
		expect(infoButton(m, 0)).toBeNull();
		mounted?.leaf.detach();
		const plain = await answered(undefined);
		expect(infoButton(plain)).toBeNull();
	});

	it("shows the tokens, which were reported and which estimated, the time to first token, the speed and the model", async () => {
		const m = await answered(STATS);
		infoButton(m)!.click();
		expect(popover(m)?.getAttr("role")).toBe("dialog");
		expect(infoButton(m)?.getAttr("aria-expanded")).toBe("true");
		expect(rows(m)).toEqual({
			"Prompt tokens": "12,000 (reported by the server)",
			"Answer tokens": "800 (estimated)",
			"Time to first token": "420 ms",
			// 800 tokens over 4 s of streaming.
			Speed: "200 tokens/s",
			Model: "gpt-4o-mini",
			// Without prices, the chat's total is its tokens.
			"This chat": "12.8K tokens",
		});
	});

	it("with prices: the answer's cost and the chat's total; a tool loop's requests are counted", async () => {
		const prices = { modelPrices: [{ model: "gpt-4o-mini", input: 0.15, output: 0.6 }], priceCurrency: "USD" };
		const m = await answered({ ...STATS, requests: 3 }, prices, 2);
		infoButton(m, 3)!.click();
		const shown = rows(m);
		expect(shown.Requests).toBe("3");
		// 12,000 × 0.15 / 1M + 800 × 0.6 / 1M = $0.00228
		expect(shown.Cost).toBe("$0.0023");
		// Two such answers: 25,600 tokens, $0.00456.
		expect(shown["This chat"]).toBe("25.6K tokens · $0.0046");
	});

	it("says how much of the prompt came from the server's cache, prices it at the cached rate, and the chat's total says what the cache saved", async () => {
		const prices = { modelPrices: [{ model: "claude-x", input: 3, output: 15 }], priceCurrency: "USD" };
		const cachedStats: AnswerStats = { ...STATS, promptTokens: 5_030, cachedPromptTokens: 4_210, cacheWriteTokens: 0, model: "claude-x", provider: "anthropic" };
		const m = await answered(cachedStats, prices);
		infoButton(m)!.click();
		expect(notes(m)).toEqual(["4,210 of 5,030 prompt tokens came from the server's cache."]);
		const shown = rows(m);
		// 820 × 3 + 4,210 × 0.3 (Anthropic's cache read, 0.1× input) + 800 × 15, per million: $0.015723.
		expect(shown.Cost).toBe("$0.0157");
		// Saved: 4,210 × (3 − 0.3) / 1M = $0.011367.
		expect(shown["This chat"]).toBe("5.8K tokens · $0.0157 · Cache saved $0.0114");
	});

	it("a cached-input price entered for the model is used instead of the provider's default", async () => {
		const prices = { modelPrices: [{ model: "gpt-4o-mini", input: 0.15, output: 0.6, cachedInput: 0.075 }], priceCurrency: "USD" };
		const m = await answered({ ...STATS, cachedPromptTokens: 10_000, provider: "openai" }, prices);
		infoButton(m)!.click();
		// 2,000 × 0.15 + 10,000 × 0.075 + 800 × 0.6, per million: $0.00153.
		expect(rows(m).Cost).toBe("$0.0015");
	});

	it("without prices the chat's total says how many tokens the cache served; estimated counts say nothing of a cache", async () => {
		const m = await answered({ ...STATS, promptTokens: 5_030, cachedPromptTokens: 4_210, model: "llama3.2", provider: "ollama" }, { modelPrices: [{ model: "other", input: 1, output: 1 }], priceCurrency: "USD" });
		infoButton(m)!.click();
		expect(rows(m)["This chat"]).toBe("5.8K tokens · 4.2K from the server's cache");
		m.leaf.detach();
		const e = await answered({ ...STATS, reported: { prompt: false, answer: false }, cachedPromptTokens: 4_210 });
		infoButton(e)!.click();
		expect(notes(e)).toEqual([]);
	});

	it("the cache line follows the person's language, plural forms included", async () => {
		setLanguage("ru");
		const m = await answered({ ...STATS, promptTokens: 5_031, cachedPromptTokens: 4_210 });
		infoButton(m)!.click();
		expect(notes(m)[0]).toMatch(/^4\s210 из 5\s031 токена запроса взяты из кэша сервера\.$/);
		m.leaf.detach();
		setLanguage("de");
		const d = await answered({ ...STATS, promptTokens: 5_030, cachedPromptTokens: 4_210 });
		infoButton(d)!.click();
		expect(notes(d)).toEqual(["4.210 von 5.030 Prompt-Tokens kamen aus dem Cache des Servers."]);
	});

	it("says what the turn's summary of earlier messages took, and the answer's cost and the chat's total include it", async () => {
		const prices = { modelPrices: [{ model: "gpt-4o-mini", input: 0.15, output: 0.6 }], priceCurrency: "USD" };
		const summary = { promptTokens: 3_000, answerTokens: 200, reported: { prompt: true, answer: true }, requests: 1 };
		const m = await answered({ ...STATS, summary }, prices);
		infoButton(m)!.click();
		const shown = rows(m);
		// The answer's own counts stay its own.
		expect(shown["Prompt tokens"]).toBe("12,000 (reported by the server)");
		// (12,000 + 3,000) × 0.15 / 1M + (800 + 200) × 0.6 / 1M = $0.00285
		expect(shown.Cost).toBe("$0.0029");
		expect(shown["This chat"]).toBe("16K tokens · $0.0029");
		expect(notes(m)).toEqual(["Includes a summary of earlier messages: 3,000 prompt tokens, 200 answer tokens (reported by the server)."]);
	});

	it("says a summary's counts were estimated, and that a request was refused as too long and retried", async () => {
		const summary = { promptTokens: 1_234, answerTokens: 56, reported: { prompt: true, answer: false }, requests: 2 };
		const m = await answered({ ...STATS, summary, refused: 1 });
		infoButton(m)!.click();
		expect(notes(m)).toEqual(["Includes a summary of earlier messages: 1,234 prompt tokens, 56 answer tokens (estimated).", "1 request refused as too long, retried."]);
	});

	it("an answer whose turn made only its own requests has no notes", async () => {
		const m = await answered(STATS);
		infoButton(m)!.click();
		expect(popover(m)?.querySelectorAll(".discover-chat-stats-note")).toHaveLength(0);
	});

	it("a model without a price says so, and points to the settings", async () => {
		const m = await answered({ ...STATS, model: "llama3.2" }, { modelPrices: [{ model: "gpt-4o-mini", input: 0.15, output: 0.6 }] });
		infoButton(m)!.click();
		expect(rows(m).Cost).toBe("No price for this model. Add one in settings.");
		expect(rows(m)["This chat"]).toBe("12.8K tokens");
	});

	it("Escape closes it and gives the focus back to the button, without reaching the panel", async () => {
		const m = await answered(STATS);
		const button = infoButton(m)!;
		button.click();
		expect(document.activeElement).toBe(popover(m));
		const esc = pressKey(popover(m)!, "Escape");
		expect(esc.defaultPrevented).toBe(true);
		expect(popover(m)).toBeNull();
		expect(document.activeElement).toBe(button);
		expect(button.getAttr("aria-expanded")).toBe("false");
	});

	it("a click elsewhere closes it; the button opens and closes it", async () => {
		const m = await answered(STATS);
		const button = infoButton(m)!;
		button.click();
		m.input().dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));
		expect(popover(m)).toBeNull();
		button.click();
		expect(popover(m)).not.toBeNull();
		button.click();
		expect(popover(m)).toBeNull();
	});

	it("numbers and money follow the person's language", async () => {
		setLanguage("de");
		const m = await answered({ ...STATS, firstTokenMs: 1420 }, { modelPrices: [{ model: "gpt-4o-mini", input: 0.15, output: 0.6 }], priceCurrency: "EUR" });
		infoButton(m)!.click();
		const shown = rows(m);
		expect(shown["Prompt-Tokens"]).toBe("12.000 (vom Server gemeldet)");
		expect(shown["Zeit bis zum ersten Token"]).toBe("1,4 Sek.");
		// Intl puts a no-break space before the euro sign.
		expect(shown.Kosten?.replace(/\s/g, " ")).toBe("0,0023 €");
	});

	it("the notes follow the person's language, plural forms included", async () => {
		setLanguage("ru");
		const summary = { promptTokens: 1_500, answerTokens: 90, reported: { prompt: true, answer: true }, requests: 1 };
		const m = await answered({ ...STATS, summary, refused: 3 });
		infoButton(m)!.click();
		const [said, refused] = notes(m);
		expect(said?.replace(/\s/g, " ")).toBe("Включает сводку ранних сообщений: токены запроса — 1 500, токены ответа — 90 (по данным сервера).");
		expect(refused).toBe("3 запроса отклонены как слишком длинные и отправлены повторно.");
	});
});
