import { describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import {
	MAX_FACTOR,
	MIN_FACTOR,
	TokenCalibration,
	calibratedEstimate,
	parseCalibrationData,
	type CalibrationData,
} from "../../src/chat/calibration";

/** Deterministic noise in [-amplitude, +amplitude]. */
function noise(seed: number, amplitude: number): number {
	const x = Math.sin(seed * 12.9898) * 43758.5453;
	return (x - Math.floor(x) - 0.5) * 2 * amplitude;
}

/** A provider whose true prompt count is `scale` × our raw estimate, ±2%. */
function provider(scale: number) {
	return (estimate: number, turn: number) => Math.round(estimate * scale * (1 + noise(turn, 0.02)));
}

describe("TokenCalibration", () => {
	it("uses a factor of 1 for a model it has never seen", () => {
		const cal = new TokenCalibration();
		expect(cal.factor("llama3.1:8b")).toBe(1);
		expect(calibratedEstimate(cal, "llama3.1:8b", 1234)).toBe(1234);
		expect(calibratedEstimate(undefined, "llama3.1:8b", 1234)).toBe(1234);
	});

	for (const scale of [1.3, 0.8, 1.07, 2.1]) {
		it(`tracks a provider counting ${scale}× the estimate within ±5% after five responses, despite a truncation`, () => {
			const cal = new TokenCalibration();
			const count = provider(scale);
			for (let turn = 1; turn <= 5; turn++) {
				const estimate = 1500 + 700 * turn;
				// The second response comes from a server that silently cut the prompt to 2048 tokens.
				const reported = turn === 2 ? 2048 * 0.4 : count(estimate, turn);
				cal.observe("model", estimate, reported);
			}
			for (let probe = 0; probe < 5; probe++) {
				const raw = 3000 + 997 * probe;
				const truth = raw * scale;
				expect(Math.abs(calibratedEstimate(cal, "model", raw) - truth) / truth).toBeLessThanOrEqual(0.05);
			}
		});
	}

	it("is not dragged down by a server that keeps truncating a growing conversation", () => {
		const cal = new TokenCalibration();
		const count = provider(1.3);
		for (let turn = 1; turn <= 8; turn++) cal.observe("model", 1000 + 100 * turn, count(1000 + 100 * turn, turn));
		const before = cal.factor("model");
		// Ollama without num_ctx: the prompt keeps growing, the server keeps counting 2048.
		for (let turn = 9; turn <= 40; turn++) cal.observe("model", 2000 + 150 * turn, 2048);
		expect(cal.factor("model")).toBeCloseTo(before, 2);
		expect(Math.abs(cal.factor("model") - 1.3) / 1.3).toBeLessThanOrEqual(0.05);
	});

	it("follows a model that really changed: a steady run of consistent lower ratios", () => {
		const cal = new TokenCalibration();
		for (let turn = 1; turn <= 10; turn++) cal.observe("model", 2000, 2600);
		for (let turn = 1; turn <= 6; turn++) cal.observe("model", 2000 + 10 * turn, Math.round((2000 + 10 * turn) * 0.9));
		expect(cal.factor("model")).toBeCloseTo(0.9, 2);
	});

	it("ignores absurd and tiny samples", () => {
		const cal = new TokenCalibration();
		cal.observe("model", 0, 500);
		cal.observe("model", 1000, 0);
		cal.observe("model", 1000, -3);
		cal.observe("model", Number.NaN, 100);
		cal.observe("model", 1000, Number.POSITIVE_INFINITY);
		cal.observe("model", 1000, 50_000); // 50×: a broken report, not a tokenizer
		cal.observe("model", 1000, 100); // 0.1×
		cal.observe("model", 5, 9); // too small to tell framing from text
		cal.observe("", 1000, 1200);
		expect(cal.samples("model")).toBe(0);
		expect(cal.factor("model")).toBe(1);
		expect(cal.toJSON().models).toEqual({});
	});

	it("keeps models apart", () => {
		const cal = new TokenCalibration();
		for (let turn = 1; turn <= 3; turn++) {
			cal.observe("a", 1000, 1300);
			cal.observe("b", 1000, 800);
		}
		expect(cal.factor("a")).toBeCloseTo(1.3, 5);
		expect(cal.factor("b")).toBeCloseTo(0.8, 5);
	});

	it("reports every accepted observation to onChange with the data to persist", () => {
		const onChange = vi.fn<(data: CalibrationData) => void>();
		const cal = new TokenCalibration({ onChange });
		cal.observe("model", 1000, 1250);
		expect(onChange).toHaveBeenCalledTimes(1);
		expect(onChange.mock.calls[0]?.[0]).toEqual({ version: 1, models: { model: [1.25] }, margins: { model: { answers: 1 } } });
		cal.observe("model", 0, 1250);
		expect(onChange).toHaveBeenCalledTimes(1);
	});

	it("stays bounded: at most 20 ratios per model and 32 models, forgetting the oldest", () => {
		const cal = new TokenCalibration();
		for (let k = 0; k < 50; k++) cal.observe(`model-${k}`, 1000, 1100);
		for (let k = 0; k < 100; k++) cal.observe("model-49", 1000, 1100 + k);
		const data = cal.toJSON();
		expect(Object.keys(data.models)).toHaveLength(32);
		expect(data.models["model-0"]).toBeUndefined();
		expect(data.models["model-49"]).toHaveLength(20);
		expect(JSON.stringify(data).length).toBeLessThan(16_000);
	});

	it("restores what it persisted", () => {
		const cal = new TokenCalibration();
		for (let turn = 1; turn <= 4; turn++) cal.observe("gpt-4o", 1000 + turn, 1130 + turn);
		const restored = TokenCalibration.fromJSON(JSON.parse(JSON.stringify(cal.toJSON())));
		expect(restored.factor("gpt-4o")).toBe(cal.factor("gpt-4o"));
		expect(restored.toJSON()).toEqual(cal.toJSON());
		expect(new TokenCalibration({ data: cal.toJSON() }).toJSON()).toEqual(cal.toJSON());
	});

	it("ignores damaged or old data instead of throwing", () => {
		const damaged: unknown[] = [
			undefined,
			null,
			42,
			"{",
			[],
			{},
			{ version: 0, models: { m: [1.2] } },
			{ version: 2, models: { m: [1.2] } },
			{ version: 1 },
			{ version: 1, models: null },
			{ version: 1, models: [1, 2] },
			{ version: 1, models: { m: "1.2" } },
			{ version: 1, models: { m: [Number.NaN, -1, "x", null, 99, 1.2] } },
			{ version: 1, models: { ["x".repeat(500)]: [1.2] } },
			{ version: 1, models: { __proto__: [1.2] } },
			JSON.parse('{"version":1,"models":{"__proto__":[1.5]}}'),
		];
		for (const raw of damaged) {
			const cal = TokenCalibration.fromJSON(raw);
			for (const ratios of Object.values(cal.toJSON().models)) {
				for (const r of ratios) expect(r).toBeGreaterThan(0);
			}
			expect(cal.factor("m")).toBeGreaterThanOrEqual(MIN_FACTOR);
		}
		expect(TokenCalibration.fromJSON({ version: 1, models: { m: [Number.NaN, -1, "x", 99, 1.2] } }).factor("m")).toBe(1.2);
		const proto = TokenCalibration.fromJSON(JSON.parse('{"version":1,"models":{"__proto__":[1.5]}}'));
		expect(proto.factor("__proto__")).toBe(1.5);
		expect(Object.getPrototypeOf(proto.toJSON().models)).toBe(Object.prototype);
	});
});

describe("TokenCalibration properties", () => {
	const observation = fc.record({
		model: fc.constantFrom("a", "b", "llama3.1:8b", "gpt-4o"),
		estimate: fc.oneof(fc.integer({ min: -10, max: 200_000 }), fc.double()),
		reported: fc.oneof(fc.integer({ min: -10, max: 400_000 }), fc.double()),
	});

	it("keeps every factor within the clamp and finite, whatever providers report", () => {
		fc.assert(
			fc.property(fc.array(observation, { maxLength: 80 }), (observations) => {
				const cal = new TokenCalibration();
				for (const o of observations) cal.observe(o.model, o.estimate, o.reported);
				for (const model of ["a", "b", "llama3.1:8b", "gpt-4o", "never"]) {
					const f = cal.factor(model);
					expect(Number.isFinite(f)).toBe(true);
					expect(f).toBeGreaterThanOrEqual(MIN_FACTOR);
					expect(f).toBeLessThanOrEqual(MAX_FACTOR);
				}
			}),
		);
	});

	it("round-trips through JSON to the same data and factors", () => {
		fc.assert(
			fc.property(fc.array(observation, { maxLength: 80 }), (observations) => {
				const cal = new TokenCalibration();
				for (const o of observations) cal.observe(o.model, o.estimate, o.reported);
				const data = cal.toJSON();
				const restored = TokenCalibration.fromJSON(JSON.parse(JSON.stringify(data)));
				expect(restored.toJSON()).toEqual(data);
				expect(parseCalibrationData(data)).toEqual(data);
				for (const model of Object.keys(data.models)) expect(restored.factor(model)).toBe(cal.factor(model));
			}),
		);
	});

	it("never throws on arbitrary JSON", () => {
		fc.assert(
			fc.property(fc.jsonValue(), (raw) => {
				const cal = TokenCalibration.fromJSON(raw);
				expect(cal.toJSON().version).toBe(1);
			}),
		);
	});
});
