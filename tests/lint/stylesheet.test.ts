// styles.css as the browser reads it: every rule closed, and no rule inside another style rule. A
// lost `}` does not fail a build; Chromium reads what follows as nested rules of the unclosed one
// (`.a { … .b { … } }` styles `.a .b`), so every later rule silently stops applying.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** What is wrong with the blocks' structure, by line; comments and strings are skipped. */
function stylesheetProblems(css: string): string[] {
	const problems: string[] = [];
	const open: { line: number; at: boolean; selector: string }[] = [];
	let line = 1;
	let prelude = "";
	for (let i = 0; i < css.length; i++) {
		const ch = css[i];
		if (ch === "\n") line++;
		if (ch === "/" && css[i + 1] === "*") {
			const end = css.indexOf("*/", i + 2);
			const stop = end < 0 ? css.length : end + 2;
			line += (css.slice(i, stop).match(/\n/g) ?? []).length;
			i = stop - 1;
			continue;
		}
		if (ch === '"' || ch === "'") {
			const end = css.indexOf(ch, i + 1);
			i = end < 0 ? css.length : end;
			continue;
		}
		if (ch === "{") {
			const selector = prelude.trim().replace(/\s+/g, " ");
			const parent = open.at(-1);
			if (parent && !parent.at) problems.push(`line ${line}: "${selector}" is inside the rule "${parent.selector}" opened on line ${parent.line} (a missing "}"?)`);
			open.push({ line, at: selector.startsWith("@"), selector });
			prelude = "";
		} else if (ch === "}") {
			if (!open.pop()) problems.push(`line ${line}: a "}" closes nothing`);
			prelude = "";
		} else if (ch === ";") {
			prelude = "";
		} else {
			prelude += ch;
		}
	}
	for (const block of open) problems.push(`line ${block.line}: "${block.selector}" is never closed`);
	return problems;
}

describe("styles.css", () => {
	it("finds an unclosed rule and the rules swallowed by it (so the check can fail)", () => {
		expect(stylesheetProblems(".a {\n\tcolor: red;\n/* b */\n.b {\n\tcolor: blue;\n}\n")).toEqual([
			'line 4: ".b" is inside the rule ".a" opened on line 1 (a missing "}"?)',
			'line 1: ".a" is never closed',
		]);
		expect(stylesheetProblems('@media (hover: none) {\n\t.a { content: "}"; }\n}\n')).toEqual([]);
	});

	it("closes every rule and nests rules only in at-rules", () => {
		expect(stylesheetProblems(readFileSync(join(__dirname, "../../styles.css"), "utf8"))).toEqual([]);
	});
});
