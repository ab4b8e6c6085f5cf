import fc from "fast-check";
import { topCutFitter } from "../../src/chat/topCutFitter";
import { describe, expect, it } from "vitest";
import { lineArb, messageTextArb, textArb } from "../support/scriptTexts";
import { promptCost } from "../../src/chat/promptCost";
import { renderSourceBlock, SOURCES_PREAMBLE, SOURCE_SEPARATOR } from "../../src/chat/sourceBlock";
import { buildPrompt, composeSystemMessage, summaryBlock } from "../../src/chat/prompt";
import { estimateTokens } from "../../src/chat/tokens";
import type { PromptMessage } from "../../src/core/types";

const history: PromptMessage[] = [
	{ role: "user", content: "What is a token window?" },
	{ role: "assistant", content: "The most tokens a model reads at once." },
];

function lines(count: number, prefix = "line"): string {
	return Array.from({ length: count }, (_, i) => `${prefix} ${i} of the document, with a few words`).join("\n");
}

describe("buildPrompt", () => {
	it("orders instructions and summary, history, then this turn's sources and the current message once", () => {
		const built = buildPrompt({
			systemPrompt: "Be brief.",
			context: { text: "Alpha\nBeta", name: "Note" },
			summary: "They talked about windows.",
			history,
			current: "And the budget?",
			budget: 10_000,
		});
		expect(built.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
		// The stable head: nothing of this turn's sources in it.
		expect(built.messages[0]?.content).toBe(`Be brief.\n\n${summaryBlock("They talked about windows.")}`);
		expect(built.messages.slice(1, 3)).toEqual(history);
		const sourcesSection = [SOURCES_PREAMBLE, renderSourceBlock(1, "Note", "Note", "whole", "Alpha\nBeta")].join(SOURCE_SEPARATOR);
		expect(built.messages[3]).toEqual({ role: "user", content: `${sourcesSection}\n\nAnd the budget?` });
		expect(built.context).toEqual({ included: "whole", fraction: 1 });
		expect(built.estimatedTokens).toBe(promptCost(built.messages, estimateTokens));
	});

	it("leaves out the system message when there is nothing to put in it", () => {
		const built = buildPrompt({ systemPrompt: "  ", history: [], current: "Hi", budget: 100 });
		expect(built.messages).toEqual([{ role: "user", content: "Hi" }]);
		expect(built.context).toEqual({ included: "none", fraction: 0 });
	});

	it("by default sends the part of a long document that answers the question, not its first pages", () => {
		const filler = Array.from({ length: 3000 }, (_, i) => `Paragraph ${i} about harbour logistics and crane schedules.\n`).join("\n");
		const text = `${filler}\n## Opening hours\n\nThe lighthouse museum opens at 9:40 on Thursdays.\n`;
		const built = buildPrompt({ systemPrompt: "", context: { text, name: "Log" }, history: [], current: "When does the lighthouse museum open?", budget: 1500 });
		expect(built.estimatedTokens).toBeLessThanOrEqual(1500);
		expect(built.context.included).toBe("partial");
		expect(built.messages[0]?.content).toContain("opens at 9:40 on Thursdays");
		expect(buildPrompt({ systemPrompt: "", context: { text, name: "Log" }, history: [], current: "When does the lighthouse museum open?", budget: 1500, fitter: topCutFitter }).messages[0]?.content).not.toContain("9:40");
	});

	it("cut from the top (topCutFitter), a long document ends at a line boundary with a note, inside the budget", () => {
		const text = lines(2000);
		const built = buildPrompt({ systemPrompt: "Be brief.", context: { text }, history, current: "Q", budget: 1000, fitter: topCutFitter });
		expect(built.context.included).toBe("partial");
		expect(built.context.fraction).toBeGreaterThan(0);
		expect(built.context.fraction).toBeLessThan(1);
		expect(built.estimatedTokens).toBeLessThanOrEqual(1000);
		expect(built.messages[0]?.content).toBe("Be brief.");
		const system = built.messages[built.messages.length - 1]?.content ?? "";
		const heading = system.indexOf("⟦SOURCE 1⟧");
		const body = system.slice(system.indexOf("\n", heading) + 1, system.indexOf("\n[Cut here to fit"));
		expect(text.startsWith(body + "\n")).toBe(true);
		expect(system).toContain("Cut here to fit the model's context window");
		// Most of the space is used: the cut is near the budget, not far below it.
		expect(built.estimatedTokens).toBeGreaterThan(900);
	});

	it("gives the document only what the messages leave", () => {
		const text = lines(400);
		const short = buildPrompt({ systemPrompt: "", context: { text }, history: [], current: "Q", budget: 2000, fitter: topCutFitter });
		const long = buildPrompt({ systemPrompt: "", context: { text }, history, current: "Q", budget: 2000, fitter: topCutFitter });
		expect(long.context.fraction).toBeLessThan(short.context.fraction);
		expect(long.messages.slice(0, -1)).toEqual(history);
		const current = long.messages[long.messages.length - 1]?.content ?? "";
		expect(current.startsWith(SOURCES_PREAMBLE)).toBe(true);
		expect(current.endsWith("\n\nQ")).toBe(true);
	});

	it("includes nothing of the document when the messages fill the budget", () => {
		const built = buildPrompt({ systemPrompt: "S", context: { text: "Some note" }, history, current: "Q", budget: 30 });
		expect(built.context).toEqual({ included: "none", fraction: 0 });
		expect(built.messages).toEqual([{ role: "system", content: "S" }, ...history, { role: "user", content: "Q" }]);
	});

	it("cuts a document that is one enormous line instead of dropping it", () => {
		const text = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo".repeat(3000);
		const built = buildPrompt({ systemPrompt: "", context: { text }, history: [], current: "Q", budget: 3000 });
		expect(built.context.included).toBe("partial");
		expect(built.estimatedTokens).toBeLessThanOrEqual(3000);
	});

	it("estimates a 1 MB note at most twice (its size, and its passages' prices), and a later send with the same estimator at most once more", () => {
		const text = lines(20_000).padEnd(1_000_000, "x");
		let charsEstimated = 0;
		const counting = (t: string): number => {
			charsEstimated += t.length;
			return estimateTokens(t);
		};
		const built = buildPrompt({ systemPrompt: "S", context: { text }, history, current: "Q", budget: 4000, estimate: counting });
		expect(built.context.included).toBe("partial");
		// Relevance fitting prices every passage once per note version and estimator (cached).
		expect(charsEstimated).toBeLessThan(2 * text.length + 100_000);
		const first = charsEstimated;
		buildPrompt({ systemPrompt: "S", context: { text }, history, current: "Q again", budget: 4000, estimate: counting });
		expect(charsEstimated - first).toBeLessThan(text.length + 100_000);
	});

	it("drops stray system messages from the history so only the first message is system", () => {
		const built = buildPrompt({
			systemPrompt: "S",
			history: [{ role: "system", content: "old" }, ...history],
			current: "Q",
			budget: 1000,
		});
		expect(built.messages.filter((m) => m.role === "system")).toHaveLength(1);
		expect(built.messages).toEqual([{ role: "system", content: "S" }, ...history, { role: "user", content: "Q" }]);
	});

	it("uses the estimator it is given", () => {
		const doubled = (t: string): number => 2 * estimateTokens(t);
		const plain = buildPrompt({ systemPrompt: "S", history, current: "Q", budget: 1000 });
		const built = buildPrompt({ systemPrompt: "S", history, current: "Q", budget: 1000, estimate: doubled });
		expect(built.estimatedTokens).toBe(promptCost(built.messages, doubled));
		expect(built.estimatedTokens).toBeGreaterThan(plain.estimatedTokens);
	});
});

describe("buildPrompt properties", () => {
	const historyArb = fc.array(
		fc.record({ role: fc.constantFrom<"user" | "assistant">("user", "assistant"), content: messageTextArb }),
		{ maxLength: 8 },
	);
	const contextArb = fc.option(
		fc.record({ text: fc.oneof(textArb, fc.array(lineArb, { maxLength: 300 }).map((l) => l.join("\n"))), name: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }) }),
		{ nil: undefined },
	);

	it("keeps order, the current message once and last, one leading system message, and the budget", () => {
		fc.assert(
			fc.property(
				fc.string({ maxLength: 200 }),
				contextArb,
				fc.option(textArb, { nil: undefined }),
				historyArb,
				messageTextArb,
				fc.integer({ min: 1, max: 6000 }),
				(systemPrompt, context, summary, hist, current, budget) => {
					const built = buildPrompt({ systemPrompt, context, summary, history: hist, current, budget });
					const ms = built.messages;
					// The head never depends on the sources: instructions and summary only.
					const head = composeSystemMessage(systemPrompt, "", summary);
					if (head !== "") expect(ms[0]).toEqual({ role: "system", content: head });
					// This turn's sources ride with the current message, before the person's words.
					const last = ms[ms.length - 1]!;
					expect(last.role).toBe("user");
					if (built.sourcesTokens === 0) expect(last.content).toBe(current);
					else expect(last.content.startsWith(SOURCES_PREAMBLE) && last.content.endsWith(`\n\n${current}`)).toBe(true);
					expect(ms.slice(1).every((m) => m.role !== "system")).toBe(true);
					const body = ms[0]?.role === "system" ? ms.slice(1, -1) : ms.slice(0, -1);
					expect(body).toEqual(hist);
					expect(built.estimatedTokens).toBe(promptCost(ms, estimateTokens));
					const bare = buildPrompt({ systemPrompt, summary, history: hist, current, budget });
					if (bare.estimatedTokens <= budget) expect(built.estimatedTokens).toBeLessThanOrEqual(budget);
					if (built.context.included === "whole") {
						expect(last.content).toContain(context?.text ?? "");
						expect(built.context.fraction).toBe(1);
					}
					if (built.context.included === "partial") {
						expect(built.context.fraction).toBeGreaterThan(0);
						expect(built.context.fraction).toBeLessThan(1);
					}
					if (built.context.included === "none") expect(last.content).toBe(current);
				},
			),
			{ numRuns: 300 },
		);
	});

	it("includes the whole document whenever it fits with room to spare", () => {
		fc.assert(
			fc.property(textArb, historyArb, messageTextArb, (text, hist, current) => {
				const base = buildPrompt({ systemPrompt: "S", history: hist, current, budget: 0 }).estimatedTokens;
				const needed = base + estimateTokens(SOURCES_PREAMBLE + SOURCE_SEPARATOR + renderSourceBlock(1, "Active note", "Active note", "whole", text)) + 8;
				const built = buildPrompt({ systemPrompt: "S", context: { text }, history: hist, current, budget: needed + 40 });
				if (text !== "") expect(built.context.included).toBe("whole");
			}),
			{ numRuns: 200 },
		);
	});
});
