import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { messageTextArb } from "../support/scriptTexts";
import { sourcesArb } from "../support/sourcesArb";
import { allocateTiers, minimumShare, orderSources, SOURCE_TIERS, tierOf, waterFill } from "../../src/chat/sourceBudget";
import { buildPrompt, withSources } from "../../src/chat/prompt";
import { promptCost } from "../../src/chat/promptCost";
import { escapeSourceText } from "../../src/chat/sourceBlock";
import type { SourceFitter } from "../../src/chat/sourceFitter";
import { topCutFitter } from "../../src/chat/topCutFitter";
import { estimateTokens } from "../../src/chat/tokens";
import type { ContextSource, ContextSourceKind } from "../../src/core/types";

const needsArb = fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 8 });

describe("waterFill", () => {
	it("never gives more than the room or a need, and a cut source gets at least every other share", () => {
		fc.assert(
			fc.property(needsArb, fc.integer({ min: -10, max: 20_000 }), (needs, room) => {
				const shares = waterFill(needs, room);
				const sum = shares.reduce((a, b) => a + b, 0);
				expect(sum).toBeLessThanOrEqual(Math.max(0, room));
				shares.forEach((share, i) => {
					expect(share).toBeGreaterThanOrEqual(0);
					expect(share).toBeLessThanOrEqual(needs[i] ?? 0);
					if (share < (needs[i] ?? 0)) {
						// Fairness: the cut source got the largest share; nothing was wasted but rounding.
						for (const other of shares) expect(share).toBeGreaterThanOrEqual(other - 1);
						expect(Math.max(0, room) - sum).toBeLessThan(needs.length);
					}
				});
			}),
		);
	});

	it("gives a small need all of it when a huge one is cut (what the small one does not need goes to the huge one)", () => {
		expect(waterFill([100_000, 300], 1000)).toEqual([700, 300]);
		expect(waterFill([100_000, 300, 100_000], 1000)).toEqual([350, 300, 350]);
	});
});

describe("allocateTiers", () => {
	const tiersArb = fc.array(fc.constantFrom(...SOURCE_TIERS), { maxLength: 8 });
	it("serves tiers in order: once a tier has a cut source, every lower tier's sources above the minimum share get nothing", () => {
		fc.assert(
			fc.property(tiersArb, needsArb, fc.integer({ min: 0, max: 20_000 }), (tiers, rawNeeds, room) => {
				const needs = tiers.map((_, i) => rawNeeds[i] ?? 10);
				const shares = allocateTiers(tiers, needs, room);
				expect(shares.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(room);
				const rank = (t: ContextSourceKind): number => SOURCE_TIERS.indexOf(t);
				tiers.forEach((high, i) => {
					if ((shares[i] ?? 0) >= (needs[i] ?? 0)) return;
					tiers.forEach((low, j) => {
						if (rank(low) > rank(high) && (needs[j] ?? 0) > minimumShare(needs, room)) expect(shares[j]).toBe(0);
					});
				});
			}),
		);
	});
});

describe("orderSources", () => {
	it("puts the selection first, then added notes, the active note, retrieved passages; an id given twice goes in once", () => {
		const sources: ContextSource[] = [
			{ id: "r", name: "R", text: "r", kind: "retrieved" },
			{ id: "a.md", name: "A", text: "a", kind: "active" },
			{ id: "n.md", name: "N", text: "n" },
			{ id: "selection", name: "Selection", text: "s", kind: "selection" },
			{ id: "n.md", name: "N again", text: "n", kind: "active" },
		];
		expect(orderSources(sources).map((s) => [s.id, tierOf(s)])).toEqual([
			["selection", "selection"],
			["n.md", "note"],
			["a.md", "active"],
			["r", "retrieved"],
		]);
	});
});

// Fitters a caller may inject: the top cut; one that returns excerpts from the end (as a relevance
// fitter would for a needle near the end); and broken ones, whose mistakes must cost only their source.
const tailFitter: SourceFitter = (source, budget, _query, estimate) => {
	const totalTokens = estimate(source.text);
	let start = source.text.length;
	while (start > 0 && estimate("[…]\n" + source.text.slice(start - 1)) <= budget) start--;
	const text = "[…]\n" + source.text.slice(start);
	if (start >= source.text.length) return { text: "", sentTokens: 0, totalTokens, fit: "none", passages: [] };
	return { text, sentTokens: estimate(text), totalTokens, fit: "excerpts", passages: [{ start, end: source.text.length, headingPath: "" }] };
};
const overshootingFitter: SourceFitter = (source, _budget, _query, estimate) => ({
	text: source.text + source.text,
	sentTokens: 1,
	totalTokens: estimate(source.text),
	fit: "excerpts",
	passages: [{ start: -5, end: 1e12, headingPath: "" }],
});
const throwingFitter: SourceFitter = () => {
	throw new Error("fitter bug");
};
const garbageFitter = (() => ({ text: 42 })) as unknown as SourceFitter;
const fitterArb = fc.constantFrom(topCutFitter, tailFitter, overshootingFitter, throwingFitter, garbageFitter);

const historyArb = fc.array(fc.record({ role: fc.constantFrom<"user" | "assistant">("user", "assistant"), content: messageTextArb }), { maxLength: 6 });
/** The engine's estimate as calibrated for a model that counts fewer or more tokens. */
const estimateArb = fc.constantFrom(1, 0.7, 1.6).map((factor) => (factor === 1 ? estimateTokens : (t: string): number => Math.ceil(estimateTokens(t) * factor)));

describe("sources in the prompt (properties)", () => {
	it("the budget holds, the turn appears once and last, every source is reported once, whole means verbatim, tiers are served in order", () => {
		// The throwing fitter is logged each time it is replaced by the top cut.
		const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
		try {
		fc.assert(
			fc.property(
				sourcesArb,
				historyArb,
				messageTextArb,
				fc.integer({ min: 50, max: 8000 }),
				fitterArb,
				estimateArb,
				fc.option(fc.integer({ min: 0, max: 3000 }), { nil: undefined }),
				(sources, history, current, budget, fitter, estimate, sourcesCap) => {
					const built = buildPrompt({ systemPrompt: "Be brief.", sources, history: history, current, budget, estimate, fitter, sourcesCap });
					const bare = buildPrompt({ systemPrompt: "Be brief.", history: history, current, budget, estimate });
					const ms = built.messages;
					expect(built.estimatedTokens).toBe(promptCost(ms, estimate));
					// The budget: sources never push a prompt over it.
					if (bare.estimatedTokens <= budget) expect(built.estimatedTokens).toBeLessThanOrEqual(budget);
					else expect(built.estimatedTokens).toBe(bare.estimatedTokens);
					if (sourcesCap !== undefined) expect(built.sourcesTokens).toBeLessThanOrEqual(sourcesCap);
					// The latest turn: once, last.
					// This turn's sources ride with it, before the person's words.
					const last = ms[ms.length - 1]!;
					expect(last).toEqual({ role: "user", content: withSources(built.sourcesSection, current) });
					expect(ms.filter((m) => m.role === "user" && m.content === current).length).toBe(history.filter((m) => m.content === current && m.role === "user").length + (built.sourcesSection === "" ? 1 : 0));
					// Every source reported exactly once.
					expect(built.sources.map((f) => f.id).sort()).toEqual(sources.map((s) => s.id).sort());
					expect(ms[0]?.role === "system" ? ms[0].content : "").toBe("Be brief.");
					const system = built.sourcesSection;
					for (const fit of built.sources) {
						const source = sources.find((s) => s.id === fit.id) as ContextSource;
						expect(fit.sentTokens).toBeLessThanOrEqual(built.sourcesTokens);
						if (fit.fit === "whole") {
							expect(system).toContain(escapeSourceText(source.text));
							expect(fit.sentTokens).toBe(fit.totalTokens);
						}
						if (fit.fit === "none") expect(fit.sentTokens).toBe(0);
						for (const p of fit.passages ?? []) {
							expect(p.start).toBeGreaterThanOrEqual(0);
							expect(p.end).toBeLessThanOrEqual(source.text.length);
						}
					}
					// Tiers: a source of a higher tier that is not whole leaves no excerpts for lower tiers;
					// they go whole (a small one's minimum share, or room the fitters left unused) or not at all.
					const rank = (s: ContextSource): number => SOURCE_TIERS.indexOf(tierOf(s));
					for (const high of sources) {
						const highFit = built.sources.find((f) => f.id === high.id);
						if (high.text === "" || highFit?.fit === "whole") continue;
						for (const low of sources) {
							if (rank(low) > rank(high)) expect(built.sources.find((f) => f.id === low.id)?.fit).not.toBe("excerpts");
						}
					}
					// A source's text can never close its block: one end marker per source sent.
					const sent = built.sources.filter((f) => f.fit !== "none").length;
					expect(system.match(/⟦END OF SOURCE \d+⟧/g)?.length ?? 0).toBe(sent);
				},
			),
			{ numRuns: 250 },
		);
		} finally {
			logged.mockRestore();
		}
	});

	it("a small note goes whole beside a huge one in its tier, which gets the rest as excerpts", () => {
		const huge = Array.from({ length: 20_000 }, (_, i) => `Line ${i} of the huge log.`).join("\n");
		const small = "The key is under the mat.";
		const built = buildPrompt({
			systemPrompt: "S",
			sources: [
				{ id: "Log.md", name: "Log", text: huge },
				{ id: "Key.md", name: "Key", text: small },
			],
			history: [],
			current: "Where is the key?",
			budget: 1500,
		});
		expect(built.sources.map((f) => [f.id, f.fit])).toEqual([
			["Log.md", "excerpts"],
			["Key.md", "whole"],
		]);
		// What the small note did not need went to the huge one: the room is used (the top cut sums
		// per-line estimates, each rounded up, so it stops a little short).
		expect(built.sources[0]?.sentTokens).toBeGreaterThan(1100);
		expect(built.estimatedTokens).toBeGreaterThan(1350);
		expect(built.estimatedTokens).toBeLessThanOrEqual(1500);
	});
});
