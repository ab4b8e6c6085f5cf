// The margin a chat's own well-predicted prompts support (chatAgreement.ts). Recorded on llama.cpp
// with the test model (a Qwen2-like vocabulary the estimator never saw): the server's count of the
// first prompt (a long note, a sixth of it Hebrew and Arabic) before it was sent, then the first
// five answers' counts of the same chat. From the second answer on, the calibrated estimates were
// within 4% of the counts, but the leave-one-out spread of the first prompt held 15% of the window
// back: the prompts of turn 6 used 0.84 of the window.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenCalibration } from "../../src/chat/calibration";
import { AGREEMENT_WINDOW, agreedMargin, ChatPredictions } from "../../src/chat/chatAgreement";
import { MAX_MARGIN, MIN_MARGIN } from "../../src/chat/safetyMargin";
import { SCRIPT_GROUP_COUNT } from "../../src/chat/tokenFast";

const RECORDED = [
	{ groups: [1202.7, 0, 0, 0, 249.7, 13.3], reported: 2648, raw: 1467, chat: undefined },
	{ groups: [901.4, 0, 0, 0, 0, 7.3], reported: 1085, raw: 910, chat: "c" },
	{ groups: [866.6, 0, 0, 0, 53.0, 0], reported: 1368, raw: 922, chat: "c" },
	{ groups: [873.7, 0, 0, 0, 81.1, 0.7], reported: 1437, raw: 959, chat: "c" },
	{ groups: [998.8, 0, 0, 0, 53.0, 0], reported: 1538, raw: 1057, chat: "c" },
	{ groups: [1006.6, 0, 0, 0, 53.0, 1.7], reported: 1500, raw: 1067, chat: "c" },
];

describe("the margin of a chat whose prompts the calibration predicts well", () => {
	it("recorded on llama.cpp: after five answers the chat's next prompt keeps under a tenth back, while a new chat keeps the whole spread", () => {
		const cal = new TokenCalibration();
		for (const o of RECORDED) cal.observe("tiny", o.raw, o.reported, o.groups, o.chat);
		expect(cal.margin("tiny", "c").share).toBeLessThan(0.1);
		// A new chat's first prompt may be unlike anything seen: the whole spread still holds it.
		expect(cal.margin("tiny", "new chat").share).toBeGreaterThan(0.12);
		expect(cal.margin("tiny").share).toEqual(cal.margin("tiny", "new chat").share);
	});

	it("needs three predictions in a row, all within what the learned margin allowed", () => {
		expect(agreedMargin([1.01, 1.02], 1.2, undefined)).toBeUndefined();
		expect(agreedMargin([1.01, 1.02, 1.25], 1.2, undefined)).toBeUndefined();
		const agreed = agreedMargin([1.3, 1.01, 1.02, 1.03], 1.35, undefined);
		// The highest of the remembered predictions, plus the constants.
		expect(agreed?.share).toBeCloseTo(1 - 1 / (1.3 + 0.01 + 0.05 / 5), 10);
	});

	it("a run is one chat's, in a row: another chat or an uncounted prompt starts it over", () => {
		const runs = new ChatPredictions();
		runs.add("m", "a", false, 1.01);
		runs.add("m", "a", true, 1.02);
		expect(runs.of("m", "a")).toEqual([1.01, 1.02]);
		expect(runs.of("m", "b")).toEqual([]);
		runs.add("m", "b", false, 1.1);
		expect(runs.of("m", "a")).toEqual([]);
		runs.add("m", "b", false, 1.2);
		expect(runs.of("m", "b")).toEqual([1.2]);
		runs.add("m", undefined, false, 1);
		expect(runs.of("m", "b")).toEqual([]);
		for (let i = 0; i < AGREEMENT_WINDOW + 3; i++) runs.add("m", "c", i > 0, 1 + i / 100);
		expect(runs.of("m", "c")).toHaveLength(AGREEMENT_WINDOW);
	});
});

const groupsArb = fc.tuple(fc.integer({ min: 200, max: 1500 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 40 })).map(([c, o, a]) => {
	const g = Array.from({ length: SCRIPT_GROUP_COUNT }, () => 0);
	g[0] = c;
	g[4] = o;
	g[5] = a;
	return g;
});

describe("chat agreement properties", () => {
	it("keeps its floor and cap, and applies only to the chat that earned it", () => {
		fc.assert(
			fc.property(
				fc.array(fc.record({ groups: groupsArb, noise: fc.double({ min: -0.3, max: 0.3, noNaN: true }), chat: fc.constantFrom("a", "b", undefined) }), { minLength: 1, maxLength: 30 }),
				fc.record({ common: fc.double({ min: 0.8, max: 1.6, noNaN: true }), other: fc.double({ min: 1, max: 4.5, noNaN: true }) }),
				(prompts, cost) => {
					const cal = new TokenCalibration();
					for (const p of prompts) {
						const raw = p.groups.reduce((a, b) => a + b, 0);
						const truth = (p.groups[0] ?? 0) * cost.common + (p.groups[4] ?? 0) * cost.other + (p.groups[5] ?? 0) * 1.3;
						cal.observe("m", raw, Math.max(1, Math.round(truth * (1 + p.noise))), p.groups, p.chat);
						for (const chat of ["a", "b", undefined]) {
							const m = cal.margin("m", chat);
							expect(m.share).toBeGreaterThanOrEqual(MIN_MARGIN);
							expect(m.share).toBeLessThanOrEqual(MAX_MARGIN);
						}
						// A chat other than the last counted one gets no narrowing from the agreement.
						const other = p.chat === "a" ? "b" : "a";
						const fresh = TokenCalibration.fromJSON(cal.toJSON());
						expect(cal.margin("m", other)).toEqual(fresh.margin("m", other));
					}
				},
			),
			{ numRuns: 150 },
		);
	});
});
