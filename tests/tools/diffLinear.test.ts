import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffWork, unifiedDiff } from "../../src/tools/diff";

/** Applies a unified diff to `before` (the hunks as unifiedDiff writes them). */
function apply(before: string, diff: string): string {
	const lines = before === "" ? [] : before.split("\n");
	const trailing = lines.length > 0 && lines[lines.length - 1] === "";
	if (trailing) lines.pop();
	const out: string[] = [];
	let at = 0;
	const rows = diff.split("\n");
	for (let r = 2; r < rows.length; r++) {
		const m = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(rows[r] ?? "");
		if (!m) continue;
		const oldStart = Number(m[2]) === 0 ? Number(m[1]) : Number(m[1]) - 1;
		while (at < oldStart) out.push(lines[at++] ?? "");
		for (r++; r < rows.length && !(rows[r] ?? "").startsWith("@@"); r++) {
			const row = rows[r] ?? "";
			if (row === "") continue;
			if (row[0] === " ") out.push(lines[at++] ?? "");
			else if (row[0] === "-") at++;
			else out.push(row.slice(1));
		}
		r--;
	}
	while (at < lines.length) out.push(lines[at++] ?? "");
	return out.length > 0 ? `${out.join("\n")}\n` : "";
}

describe("unifiedDiff", () => {
	it("applies: the diff turns before into after, for any lines", () => {
		const lineArb = fc.constantFrom("a", "b", "c", "", "long line ".repeat(20), "d");
		const textArb = fc.array(lineArb, { maxLength: 40 }).map((ls) => (ls.length > 0 ? `${ls.join("\n")}\n` : ""));
		fc.assert(
			fc.property(textArb, textArb, (before, after) => {
				expect(apply(before, unifiedDiff(before, after, "n.md"))).toBe(after);
			}),
		);
	});

	it("compares long lines as numbers: 400 lines of 20 KB that differ at their ends hash each line once", () => {
		const line = (k: number, v: string): string => `${"x".repeat(20_000)}${k}${v}`;
		const before = Array.from({ length: 400 }, (_, k) => line(k, k % 2 === 0 ? "a" : "b")).join("\n");
		const after = Array.from({ length: 400 }, (_, k) => line(k, k % 3 === 0 ? "a" : "b")).join("\n");
		diffWork.chars = 0;
		diffWork.cells = 0;
		const diff = unifiedDiff(before, after, "n.md");
		expect(apply(before, diff)).toBe(`${after}\n`);
		// Each line's characters once (the pairwise compare of the old code read 20 KB per cell: 160,000 cells).
		expect(diffWork.chars).toBeLessThanOrEqual(before.length + after.length);
		expect(diffWork.cells).toBeLessThanOrEqual(400 * 400);
	});

	it("numbers many hunks in a long note without recounting from the top", () => {
		const before = Array.from({ length: 50_000 }, (_, k) => `line ${k}`);
		const after = before.map((l, k) => (k >= 20_000 && k < 20_400 && k % 10 === 0 ? `${l} changed` : l));
		const diff = unifiedDiff(`${before.join("\n")}\n`, `${after.join("\n")}\n`, "n.md");
		expect(diff.match(/^@@/gm)?.length).toBe(40);
		expect(diff).toContain("@@ -20008,7 +20008,7 @@");
		expect(apply(`${before.join("\n")}\n`, diff)).toBe(`${after.join("\n")}\n`);
	});
});
