import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenCalibration, calibratedTokens, parseCalibrationData } from "../../src/chat/calibration";
import { compactionBudget } from "../../src/chat/compaction";
import { DEFAULT_MARGIN, MAX_MARGIN, MIN_MARGIN } from "../../src/chat/safetyMargin";
import { modelTokens } from "../../src/chat/tokenFast";
import { ESTIMATOR_WORST_RATIO, estimateTokens, safeBudget } from "../../src/chat/tokens";
import { loadDevSamples } from "../fixtures/tokens/samples";

/** Observations of a model whose server counts `ratio` times the raw estimate, for prompts of `raw` tokens. */
function observeAll(cal: TokenCalibration, model: string, ratios: readonly number[], raw = 3000): void {
	for (const r of ratios) cal.observe(model, raw, Math.round(raw * r));
}

describe("safety margin", () => {
	it("keeps today's margin (ESTIMATOR_WORST_RATIO) before the model reports any count", () => {
		const cal = new TokenCalibration();
		expect(cal.margin("llama")).toEqual(DEFAULT_MARGIN);
		expect(DEFAULT_MARGIN.keep).toBe(ESTIMATOR_WORST_RATIO);
		expect(compactionBudget({ maxPromptTokens: 8192, reservedResponseTokens: 512 }, cal.margin("llama").keep)).toEqual(compactionBudget({ maxPromptTokens: 8192, reservedResponseTokens: 512 }));
	});

	it("converges to a few percent for a model whose counts the calibration matches closely", () => {
		const cal = new TokenCalibration();
		observeAll(cal, "gpt-4o", [1.02, 1.01, 1.02, 1.015, 1.02, 1.01, 1.02, 1.018, 1.012, 1.02, 1.016, 1.02]);
		const margin = cal.margin("gpt-4o");
		expect(margin.share).toBeGreaterThanOrEqual(MIN_MARGIN);
		expect(margin.share).toBeLessThan(0.04);
		expect(margin.answers).toBe(12);
	});

	it("keeps a larger margin for a model whose counts spread widely", () => {
		const cal = new TokenCalibration();
		observeAll(cal, "close", [1, 1.01, 1, 1.01, 1, 1.01, 1, 1.01]);
		observeAll(cal, "spread", [1, 1.15, 0.95, 1.2, 1.05, 1.1, 0.98, 1.18]);
		expect(cal.margin("spread").share).toBeGreaterThan(cal.margin("close").share + 0.05);
	});

	it("widens at once after a surprise, above what the refused prompt needed", () => {
		const cal = new TokenCalibration();
		observeAll(cal, "m", [1, 1, 1, 1, 1, 1]);
		const before = cal.margin("m");
		// Sent at 3,000 estimated tokens; the server counted 3,300.
		cal.surprise("m", 3000, 3300);
		const after = cal.margin("m");
		expect(after.share).toBeGreaterThan(before.share);
		expect(1 / after.keep).toBeGreaterThan(3300 / 3000);
		// A refusal that names no count still widens it.
		const blind = new TokenCalibration();
		observeAll(blind, "m", [1, 1, 1, 1, 1, 1]);
		blind.surprise("m", 3000, undefined);
		expect(blind.margin("m").share).toBeGreaterThan(before.share);
		// Even before any answer was counted.
		const fresh = new TokenCalibration();
		fresh.surprise("m", 3000, 4000);
		expect(fresh.margin("m").share).toBeGreaterThan(DEFAULT_MARGIN.share);
	});

	it("comes back once three answers in a row agree with the server again, not 20 answers later", () => {
		// A real server's first hour: turn 1 refused on a tokenizer never seen; calibration corrected the estimate within
		// two answers, but the surprise held the margin wide for 20.
		const cal = new TokenCalibration();
		const twin = new TokenCalibration();
		cal.surprise("m", 3000, 4050);
		const wide = cal.margin("m").share;
		for (let i = 0; i < 6; i++) {
			cal.observe("m", 3000, 4050);
			twin.observe("m", 3000, 4050);
		}
		// The estimate now agrees with the counts (the factor learned 1.35): the surprise is over.
		expect(cal.margin("m").share).toBeLessThan(wide);
		expect(cal.margin("m")).toEqual(twin.margin("m"));
		// Saved and reloaded, it stays over.
		expect(TokenCalibration.fromJSON(JSON.parse(JSON.stringify(cal.toJSON()))).margin("m")).toEqual(cal.margin("m"));
	});

	it("stays wide while the answers after a surprise keep missing the estimate", () => {
		const cal = new TokenCalibration();
		observeAll(cal, "m", [1, 1, 1, 1, 1, 1]);
		cal.surprise("m", 3000, 3600);
		const wide = cal.margin("m").share;
		// Each count far above what the calibrated estimate and the unsurprised margin allow.
		observeAll(cal, "m", [1.3, 1, 1.3, 1, 1.3]);
		expect(cal.margin("m").share).toBeGreaterThanOrEqual(Math.min(wide, 1 - 1 / 1.3));
	});

	it("is saved with the calibration, per model, and files without margins still load", () => {
		const saved: unknown[] = [];
		const cal = new TokenCalibration({ onChange: (data) => saved.push(JSON.parse(JSON.stringify(data))) });
		observeAll(cal, "a", [1.1, 1.1, 1.12, 1.1]);
		observeAll(cal, "b", [0.9, 0.9, 0.9]);
		cal.surprise("a", 3000, 3600);
		const restored = TokenCalibration.fromJSON(saved[saved.length - 1]);
		expect(restored.margin("a")).toEqual(cal.margin("a"));
		expect(restored.margin("b")).toEqual(cal.margin("b"));
		expect(restored.margin("a").answers).toBe(4);
		// An old file: ratios only. The margin is learned from them; nothing is lost.
		const old = TokenCalibration.fromJSON({ version: 1, models: { llama: [1.2, 1.21, 1.2] } });
		expect(old.factor("llama")).toBeCloseTo(1.2);
		expect(old.margin("llama").answers).toBe(3);
		expect(old.margin("llama").share).toBeLessThan(DEFAULT_MARGIN.share);
		// Damaged margin records are dropped, the ratios kept.
		const damaged = parseCalibrationData({ version: 1, models: { m: [1.1] }, margins: { m: { answers: -3 }, ghost: { answers: 4 } } });
		expect(damaged).toEqual({ version: 1, models: { m: [1.1] } });
	});

	it("summary requests use the same learned margin as chat prompts", () => {
		const settings = { maxPromptTokens: 8192, reservedResponseTokens: 512 };
		const budget = compactionBudget(settings, 0.96);
		expect(budget.prompt).toBe(safeBudget(7680, 0.96));
		expect(budget.summaryRequest).toBe(Math.floor((8192 - budget.summaryMaxTokens) * 0.96));
		expect(budget.summaryRequest).toBeGreaterThan(compactionBudget(settings).summaryRequest);
	});

	it("calibrated estimates of a note, summed line by line, stay within 2% of the whole note's", () => {
		// Prompts are fitted from line sums: rounding each line up twice (the raw estimate, then the
		// factor) made a calibrated note look 12% larger than it was, and prompts came out short.
		const note = loadDevSamples()
			.map((s) => s.text.trim())
			.join("\n\n");
		const lines = note.match(/[^\n]*\n|[^\n]+$/g) ?? [];
		for (const factor of [1, 1.1, 1.2, 1.45]) {
			const whole = calibratedTokens(modelTokens(note), factor);
			const summed = lines.reduce((sum, line) => sum + calibratedTokens(modelTokens(line), factor), 0);
			expect(summed / whole).toBeLessThan(1.02);
			expect(summed / whole).toBeGreaterThan(0.98);
		}
		expect(calibratedTokens(0, 1.3)).toBe(0);
		expect(calibratedTokens(0.2, 1)).toBe(1);
		expect(calibratedTokens(modelTokens("hello"), 1)).toBeLessThanOrEqual(estimateTokens("hello"));
	});
});

const ratioSequenceArb = fc.oneof(
	// Consistent: one ratio.
	fc.tuple(fc.double({ min: 0.5, max: 2.5, noNaN: true }), fc.integer({ min: 1, max: 60 })).map(([r, n]) => Array.from({ length: n }, () => r)),
	// Noisy: around one ratio.
	fc.tuple(fc.double({ min: 0.6, max: 2, noNaN: true }), fc.array(fc.double({ min: -0.2, max: 0.2, noNaN: true }), { minLength: 1, maxLength: 60 })).map(([r, noise]) => noise.map((e) => r * (1 + e))),
	// Sudden jumps: anything, in any order, broken reports included.
	fc.array(fc.oneof(fc.double({ min: 0.1, max: 6, noNaN: true }), fc.constantFrom(Number.NaN, -1, 0, 1e9)), { minLength: 1, maxLength: 60 }),
);

describe("safety margin properties", () => {
	it("a surprise holds the margin over what the refused prompt needed until three answers in a row agree, and no longer than 20", () => {
		fc.assert(
			fc.property(fc.array(fc.double({ min: 0.8, max: 1.6, noNaN: true }), { minLength: 1, maxLength: 8 }), fc.double({ min: 1.05, max: 3, noNaN: true }), fc.array(fc.double({ min: 0.8, max: 1.8, noNaN: true }), { maxLength: 25 }), (before, surprise, after) => {
				const cal = new TokenCalibration();
				observeAll(cal, "m", before);
				cal.surprise("m", 3000, Math.round(3000 * surprise));
				const record = cal.toJSON().margins?.m;
				const held = record?.surprise ?? 0;
				after.forEach((r, i) => {
					cal.observe("m", 3000, Math.round(3000 * r));
					if (i < 2) expect(1 / cal.margin("m").keep).toBeGreaterThanOrEqual(Math.min(held, 1 / (1 - MAX_MARGIN)) - 1e-9);
				});
				if (after.length >= 20) {
					const twin = new TokenCalibration();
					observeAll(twin, "m", [...before, ...after]);
					expect(cal.margin("m")).toEqual(twin.margin("m"));
				}
			}),
			{ numRuns: 200 },
		);
	});

	it("never drops below its floor nor rises above its cap, whatever the counts and surprises", () => {
		fc.assert(
			fc.property(ratioSequenceArb, fc.array(fc.nat(60), { maxLength: 5 }), fc.integer({ min: 16, max: 100_000 }), (ratios, surprisesAt, raw) => {
				const cal = new TokenCalibration();
				ratios.forEach((r, i) => {
					cal.observe("m", raw, raw * r);
					if (surprisesAt.includes(i)) cal.surprise("m", raw, i % 2 === 0 ? raw * r : undefined);
					const { share, keep } = cal.margin("m");
					expect(share).toBeGreaterThanOrEqual(MIN_MARGIN);
					expect(share).toBeLessThanOrEqual(MAX_MARGIN);
					expect(keep).toBeCloseTo(1 - share, 12);
				});
				// Saved with the ratios: a model with none yet (every report broken) keeps its surprise in memory only.
				const restored = TokenCalibration.fromJSON(JSON.parse(JSON.stringify(cal.toJSON())));
				if (cal.samples("m") > 0) expect(restored.margin("m")).toEqual(cal.margin("m"));
			}),
			{ numRuns: 300 },
		);
	});
});
