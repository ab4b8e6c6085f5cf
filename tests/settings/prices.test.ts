// Prices per million tokens as the person types them, and what answers and chats cost at them.
import { describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import { answerCost, chatCost, isCurrencyCode, modelPriceIssue, parsePrice, type ModelPrice } from "../../src/settings/prices";
import { chatUsage } from "../../src/core/answerStats";
import { DEFAULT_SETTINGS, validateSettings } from "../../src/settings/settings";
import { migrateSettings } from "../../src/settings/migration";
import type { AnswerStats, ChatMessage } from "../../src/core/types";

const stats = (model: string, promptTokens: number, answerTokens: number, reported = true): AnswerStats => ({ promptTokens, answerTokens, reported: { prompt: reported, answer: reported }, requests: 1, model });
const answer = (id: string, s: AnswerStats): ChatMessage => ({ id, role: "assistant", content: "…", createdAt: "2026-01-01T00:00:00.000Z", stats: s });
const PRICES: ModelPrice[] = [
	{ model: "gpt-4o-mini", input: 0.15, output: 0.6 },
	{ model: "claude-x", input: 3, output: 15 },
];

describe("price validation", () => {
	it("reads plain numbers, decimal commas and grouped thousands", () => {
		expect(parsePrice("0.15")).toEqual({ value: 0.15 });
		expect(parsePrice(" 0,15 ")).toEqual({ value: 0.15 });
		expect(parsePrice("2")).toEqual({ value: 2 });
		expect(parsePrice("1,234.5")).toEqual({ value: 1234.5 });
		expect(parsePrice("1.234,5")).toEqual({ value: 1234.5 });
	});

	it("refuses what is not a number, and a negative price, each with its own clear message", () => {
		for (const text of ["", "abc", "0.1.x", "1e", "$3", "Infinity"]) expect(parsePrice(text)).toEqual({ error: "Enter the price as a number, like 0.15." });
		expect(parsePrice("-1")).toEqual({ error: "A price can't be negative." });
	});

	it("a model's prices need its name, must not repeat a model, and must be numbers not below zero", () => {
		expect(modelPriceIssue({ model: "  ", input: 1, output: 1 }, [])).toBe("Enter the model's name.");
		expect(modelPriceIssue({ model: "claude-x ", input: 1, output: 1 }, PRICES)).toBe("claude-x already has prices.");
		expect(modelPriceIssue({ model: "m", input: -0.5, output: 1 }, [])).toBe("A price can't be negative.");
		expect(modelPriceIssue({ model: "m", input: 1, output: NaN }, [])).toBe("Enter the price as a number, like 0.15.");
		expect(modelPriceIssue({ model: "m", input: 0, output: 0 }, PRICES)).toBeNull();
	});

	it("the settings accept good prices and a known currency, and name the field of a bad one", () => {
		expect(validateSettings({ ...DEFAULT_SETTINGS, modelPrices: PRICES, priceCurrency: "EUR" })).toEqual([]);
		const bad = validateSettings({ ...DEFAULT_SETTINGS, modelPrices: [{ model: "m", input: -1, output: 1 }], priceCurrency: "dollars" });
		expect(bad.map((i) => i.field)).toEqual(["modelPrices", "priceCurrency"]);
		expect(isCurrencyCode("JPY")).toBe(true);
	});

	it("a currency code is what Intl can format, and checking one builds no formatter (the first loads ICU's currency data: 40 ms of the plugin's load)", () => {
		const intlAccepts = (value: string): boolean => {
			try {
				new Intl.NumberFormat("en", { style: "currency", currency: value });
				return true;
			} catch {
				return false;
			}
		};
		const code = fc.oneof(fc.string({ minLength: 3, maxLength: 3, unit: fc.constantFrom(..."AZaz019 éßİı-") }), fc.string({ maxLength: 5 }));
		fc.assert(fc.property(code, (value) => isCurrencyCode(value) === intlAccepts(value)));
		for (const value of ["USD", "eur", "ZZZ", "US1", "EURO", "", "ÉUR"]) expect({ value, ok: isCurrencyCode(value) }).toEqual({ value, ok: intlAccepts(value) });
		const formatters = vi.spyOn(Intl, "NumberFormat");
		try {
			expect([isCurrencyCode("EUR"), isCurrencyCode("dollars"), isCurrencyCode(3)]).toEqual([true, false, false]);
			expect(formatters).not.toHaveBeenCalled();
		} finally {
			formatters.mockRestore();
		}
	});

	it("saved prices survive a reload; damaged ones fall back to none with a warning; older data needs no migration", () => {
		expect(migrateSettings({ ...DEFAULT_SETTINGS, modelPrices: PRICES, priceCurrency: "EUR" }).settings).toMatchObject({ modelPrices: PRICES, priceCurrency: "EUR" });
		const damaged = migrateSettings({ ...DEFAULT_SETTINGS, modelPrices: [{ model: "m", input: "cheap", output: 1 }] });
		expect(damaged.settings.modelPrices).toEqual([]);
		expect(damaged.warnings.join(" ")).toContain("Model prices");
		const { modelPrices: _p, priceCurrency: _c, ...before } = DEFAULT_SETTINGS;
		const older = migrateSettings(before);
		expect(older.settings).toMatchObject({ modelPrices: [], priceCurrency: "USD" });
		expect(older.warnings).toEqual([]);
	});
});

describe("cost math", () => {
	it("an answer costs its prompt tokens at the input price and its answer tokens at the output price, per million", () => {
		// 12,000 × 0.15 / 1M + 800 × 0.6 / 1M = 0.0018 + 0.00048
		expect(answerCost(stats("gpt-4o-mini", 12_000, 800), PRICES)).toBeCloseTo(0.00228, 10);
		expect(answerCost(stats("llama3.2", 12_000, 800), PRICES)).toBeUndefined();
	});

	it("a chat costs each model's answers at that model's prices, and says when some had no price", () => {
		const chat: ChatMessage[] = [
			{ id: "u1", role: "user", content: "q", createdAt: "2026-01-01T00:00:00.000Z" },
			answer("a1", stats("gpt-4o-mini", 1_000_000, 100_000)),
			answer("a2", stats("claude-x", 10_000, 2_000, false)),
			answer("a3", stats("gpt-4o-mini", 500_000, 0)),
		];
		const usage = chatUsage(chat);
		expect(usage).toMatchObject({ promptTokens: 1_510_000, answerTokens: 102_000, answers: 3, requests: 3, reported: false });
		// gpt-4o-mini: 1.5M × 0.15 + 0.1M × 0.6 = 0.285; claude-x: 0.01M × 3 + 0.002M × 15 = 0.06
		expect(chatCost(usage!, PRICES)?.cost).toBeCloseTo(0.345, 10);
		expect(chatCost(usage!, PRICES)?.complete).toBe(true);
		expect(chatCost(usage!, PRICES.slice(0, 1))).toEqual({ cost: expect.closeTo(0.285, 10) as number, complete: false, saved: 0 });
		expect(chatCost(usage!, [])).toBeUndefined();
	});
});
