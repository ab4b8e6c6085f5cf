import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenCalibration, parseCalibrationData } from "../../src/chat/calibration";
import { MIN_MARGIN } from "../../src/chat/safetyMargin";
import { promptCost } from "../../src/chat/promptCost";
import { fitScriptFactors } from "../../src/chat/scriptCalibration";
import { ScriptSplits } from "../../src/chat/scriptSplits";
import { modelTokens } from "../../src/chat/tokenFast";
import type { PromptMessage } from "../../src/core/types";
import { modelTokensByGroup, SCRIPT_GROUP_COUNT } from "../../src/chat/tokenFast";
import { estimateTokens } from "../../src/chat/tokens";

const LATIN = "The lighthouse keeper painted the lamp room a deep cobalt blue before the storm. ";
const CYRILLIC = "Смотритель маяка перекрасил фонарное помещение в глубокий синий цвет перед бурей. ";

function split(text: string): number[] {
	const out = new Float64Array(SCRIPT_GROUP_COUNT);
	modelTokensByGroup(text, out);
	return [...out];
}

/** A tokenizer that counts Latin as the estimator does and Cyrillic at 1.4 times: one factor cannot fit both. */
function twoScriptCount(text: string): number {
	const groups = split(text);
	return Math.round((groups[0] ?? 0) + 1.4 * (groups[1] ?? 0));
}

/** A prompt of `latin` Latin sentences and `cyrillic` Cyrillic ones. */
const prompt = (latin: number, cyrillic: number): string => LATIN.repeat(latin) + CYRILLIC.repeat(cyrillic);

describe("per-script calibration", () => {
	it("splits the estimate by script group without changing its sum", () => {
		fc.assert(
			fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
				const sum = split(text).reduce((a, b) => a + b, 0);
				expect(Math.max(text === "" ? 0 : 1, Math.ceil(sum - 1e-9))).toBe(estimateTokens(text));
			}),
		);
	});

	it("learns a two-script tokenizer: a new mix is estimated within 2%, and the margin converges to a few percent", () => {
		const cal = new TokenCalibration();
		for (let turn = 0; turn < 30; turn++) {
			const text = prompt(2 + ((turn * 7) % 11), 1 + ((turn * 5) % 13));
			cal.observe("model", estimateTokens(text), twoScriptCount(text), split(text));
		}
		const factors = cal.scriptFactors("model");
		expect(factors).toBeDefined();
		for (const [latin, cyrillic] of [[20, 0], [0, 20], [3, 17]] as const) {
			const text = prompt(latin, cyrillic);
			const estimate = split(text).reduce((sum, g, i) => sum + g * (factors?.[i] ?? 1), 0);
			expect(Math.abs(estimate / twoScriptCount(text) - 1)).toBeLessThan(0.02);
		}
		expect(cal.margin("model").share).toBeLessThan(0.04);
	});

	it("without a split (an older caller), keeps the single factor and its margin", () => {
		const cal = new TokenCalibration();
		for (let turn = 0; turn < 10; turn++) cal.observe("model", 1000, 1100);
		expect(cal.scriptFactors("model")).toBeUndefined();
		expect(cal.factor("model")).toBeCloseTo(1.1, 5);
	});

	it("saves the splits with the calibration; a file without them (or with damaged ones) still loads", () => {
		const cal = new TokenCalibration();
		const text = prompt(5, 5);
		for (let turn = 0; turn < 4; turn++) cal.observe("model", estimateTokens(text), twoScriptCount(text), split(text));
		const saved = cal.toJSON();
		expect(saved.scripts?.model).toHaveLength(4);
		const reloaded = TokenCalibration.fromJSON(JSON.parse(JSON.stringify(saved)));
		expect(reloaded.scriptFactors("model")).toEqual(cal.scriptFactors("model"));
		expect(reloaded.margin("model")).toEqual(cal.margin("model"));

		const old = TokenCalibration.fromJSON({ version: 1, models: { model: [1.1, 1.1] } });
		expect(old.scriptFactors("model")).toBeUndefined();
		expect(old.factor("model")).toBeCloseTo(1.1, 5);
		const damaged = parseCalibrationData({ ...saved, scripts: { model: [{ groups: [1, 2], reported: 5 }, { groups: split(text), reported: -1 }, "x", saved.scripts?.model?.[0]] } });
		expect(damaged.scripts?.model).toHaveLength(1);
	});

	it("for any reported counts, keeps factors in range and the margin above its floor", () => {
		fc.assert(
			fc.property(
				fc.array(fc.record({ latin: fc.integer({ min: 0, max: 20 }), cyrillic: fc.integer({ min: 0, max: 20 }), ratio: fc.double({ min: 0.3, max: 4, noNaN: true }) }), { minLength: 1, maxLength: 50 }),
				(reports) => {
					const cal = new TokenCalibration();
					for (const r of reports) {
						const text = prompt(r.latin + 1, r.cyrillic);
						cal.observe("model", estimateTokens(text), Math.max(1, Math.round(estimateTokens(text) * r.ratio)), split(text));
						expect(cal.margin("model").share).toBeGreaterThanOrEqual(MIN_MARGIN);
						for (const f of cal.scriptFactors("model") ?? []) expect(f >= 0.5 && f <= 5).toBe(true);
					}
				},
			),
			{ numRuns: 60 },
		);
	});

	it("splits a prompt as promptCost prices it: texts, tool calls and tool names, framing as common", () => {
		const messages: PromptMessage[] = [
			{ role: "system", content: LATIN },
			{ role: "assistant", content: "", toolCalls: [{ id: "1", name: "search_notes", arguments: { query: CYRILLIC } }] },
			{ role: "tool", content: CYRILLIC.repeat(3), toolCallId: "1", name: "search_notes" },
			{ role: "user", content: prompt(2, 2) },
		];
		const sum = new ScriptSplits().ofPrompt(messages).reduce((a, b) => a + b, 0);
		expect(sum).toBeCloseTo(promptCost(messages, modelTokens), 6);
	});

	it("without observations, every group gets the single factor", () => {
		expect(fitScriptFactors([], 1.07)).toEqual(Array.from({ length: SCRIPT_GROUP_COUNT }, () => 1.07));
	});
});
