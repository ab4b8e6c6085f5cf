// styles.css is hand-written and edited by many branches: a lost `}` once nested every later rule
// inside `.discover-permission-record` (valid CSS nesting, so nothing complained, but every rule after
// it stopped applying). These checks read the braces: balanced, and rules nested only in at-rules.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/** The text with comments and strings blanked out (same length, so offsets still point into it). */
export function codeOnly(css: string): string {
	return css.replace(/\/\*[\s\S]*?\*\/|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, (m) => m.replace(/[^\n]/g, " "));
}

/** Problems with the block structure: unbalanced braces, or a rule nested in a style rule. */
export function blockProblems(css: string): string[] {
	const code = codeOnly(css);
	const problems: string[] = [];
	// Each open block: whether it is an at-rule (@media, @container, @supports, @layer…), and its line.
	const open: { at: boolean; line: number; head: string }[] = [];
	let headStart = 0;
	let line = 1;
	for (let i = 0; i < code.length; i++) {
		const c = code[i];
		if (c === "\n") line++;
		if (c === "{") {
			const head = code.slice(headStart, i).trim();
			const parent = open[open.length - 1];
			if (parent && !parent.at) problems.push(`line ${line}: "${head}" is nested inside the rule "${parent.head}" (line ${parent.line}); a closing brace is missing?`);
			open.push({ at: head.startsWith("@"), line, head });
			headStart = i + 1;
		} else if (c === "}") {
			if (open.pop() === undefined) problems.push(`line ${line}: a closing brace with no block open`);
			headStart = i + 1;
		} else if (c === ";") {
			headStart = i + 1;
		}
	}
	for (const b of open) problems.push(`line ${b.line}: "${b.head}" is never closed`);
	return problems;
}

describe("styles.css", () => {
	it("has balanced braces and nests rules only inside at-rules", () => {
		expect(blockProblems(readFileSync("styles.css", "utf8"))).toEqual([]);
	});

	it("the check finds a rule left open, and a rule swallowed by the one before it", () => {
		expect(blockProblems(".a { color: red; }\n@media (x) { .b { color: blue; } }")).toEqual([]);
		expect(blockProblems(".a { color: red;\n.b { color: blue; }")).toHaveLength(2);
		expect(blockProblems(".a { color: red; } }")).toEqual(["line 1: a closing brace with no block open"]);
		// Braces in comments and strings are not structure.
		expect(blockProblems('/* { */ .a::before { content: "}"; }')).toEqual([]);
	});
});
