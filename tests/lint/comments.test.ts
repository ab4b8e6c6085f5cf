// Comments say why in their own words: a pointer to an issue number ("issue 7 §4") means nothing to
// a reader without the tracker, and goes stale when the issue does.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rel, ROOT } from "./sourceGraph";

const CODE = /\.(ts|js|mjs)$/;
const ISSUE_POINTER = /\bissues? #?\d+\b|§\s*\d/i;

function codeFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return name === "fixtures" || name === "data" ? [] : codeFiles(path);
		return CODE.test(name) ? [path] : [];
	});
}

describe("comments", () => {
	it("point at no issue numbers, in src, tests, scripts or bench", () => {
		const files = ["src", "tests", "scripts", "bench"].flatMap((d) => codeFiles(join(ROOT, d)));
		expect(files.length).toBeGreaterThan(100);
		const offenders = files.flatMap((file) =>
			readFileSync(file, "utf8")
				.split("\n")
				.flatMap((line, i) => (ISSUE_POINTER.test(line) && file !== __filename ? [`${rel(file)}:${i + 1}: ${line.trim()}`] : [])),
		);
		expect(offenders).toEqual([]);
	});
});
