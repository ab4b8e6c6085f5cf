import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerRoom, fitEdit } from "../../src/editor/editBudget";

describe("the inline edit's budget", () => {
	it("never cuts the instruction or the selection: it fits with room for the answer, or says both sizes", () => {
		fc.assert(
			fc.property(fc.nat(10_000), fc.nat(50_000), fc.nat(100_000), (instructionTokens, selectionTokens, budgetTokens) => {
				const fit = fitEdit({ instructionTokens, selectionTokens, budgetTokens });
				if (fit.fits) {
					expect(instructionTokens + selectionTokens + answerRoom(selectionTokens) + fit.restTokens).toBe(budgetTokens);
					expect(fit.restTokens).toBeGreaterThanOrEqual(0);
				} else {
					expect(fit).toMatchObject({ instructionTokens, selectionTokens, budgetTokens });
					expect(fit.neededTokens).toBeGreaterThan(budgetTokens);
				}
			}),
		);
	});

	it("a 6,000-token selection does not fit a 8,192-token context with its answer", () => {
		expect(fitEdit({ instructionTokens: 10, selectionTokens: 6_000, budgetTokens: 8_192 })).toEqual({ fits: false, instructionTokens: 10, selectionTokens: 6_000, neededTokens: 13_574, budgetTokens: 8_192 });
		expect(fitEdit({ instructionTokens: 10, selectionTokens: 1_000, budgetTokens: 8_192 })).toEqual({ fits: true, restTokens: 5_868 });
	});
});
