import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cutPassages, PASSAGE_MAX_TOKENS, roughTokens } from "../../src/context/passages";
import { textArb } from "../support/scriptTexts";
import { expectTiling } from "../support/passageTiling";

const markdownArb = fc
	.array(
		fc.oneof(
			textArb,
			fc.constantFrom("# Title", "## Part", "### Deep", "```js\nconst a = 1;\n\nconst b = 2;\n```", "", "\n\n", "- item\n- item"),
			fc.string({ maxLength: 3000 }),
		),
		{ maxLength: 30 },
	)
	.map((parts) => parts.join("\n\n"));

describe("cutPassages", () => {
	it("tiles the text: passages are consecutive, without overlap or gap, and cover it all", () => {
		fc.assert(
			fc.property(markdownArb, (text) => {
				expectTiling(text, cutPassages(text));
			}),
		);
	});

	it("labels passages with their heading path and starts a passage at each heading", () => {
		const text = "# A\n\nintro\n\n## B\n\nunder b\n\n### C\n\nunder c\n\n## D\n\nunder d\n";
		const ps = cutPassages(text);
		expect(ps.map((p) => p.headingPath)).toEqual(["# A", "# A > ## B", "# A > ## B > ### C", "# A > ## D"]);
		expect(text.slice(ps[3]?.start, ps[3]?.end)).toBe("## D\n\nunder d\n");
	});

	it("merges small paragraphs and splits a huge one at sentence ends below the maximum", () => {
		const small = Array.from({ length: 10 }, (_, i) => `Short paragraph ${i}.`).join("\n\n");
		expect(cutPassages(small)).toHaveLength(1);
		const huge = Array.from({ length: 400 }, (_, i) => `Sentence number ${i} says something.`).join(" ");
		const ps = cutPassages(huge);
		expect(ps.length).toBeGreaterThan(3);
		for (const p of ps) {
			expect(roughTokens(huge, p.start, p.end)).toBeLessThanOrEqual(PASSAGE_MAX_TOKENS);
			expect(huge.slice(p.start, p.end).trimEnd()).toMatch(/\.$/);
		}
	});

	it("never splits a fenced code block that fits, even with blank lines and headings inside", () => {
		const code = "```md\n# not a heading\n\nline\n\nmore\n```\n";
		const text = `# Doc\n\n${"Some words here. ".repeat(60)}\n\n${code}\nafter\n`;
		const ps = cutPassages(text);
		const start = text.indexOf("```md");
		expect(ps.some((p) => p.start <= start && p.end >= start + code.length)).toBe(true);
		expect(ps.every((p) => p.headingPath === "# Doc")).toBe(true);
	});
});
