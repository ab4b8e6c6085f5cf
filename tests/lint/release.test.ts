// The GitHub workflows: CI runs the README's test command on every push; a tagged release attaches
// what Obsidian's plugin directory downloads.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./sourceGraph";

const workflow = readFileSync(join(ROOT, ".github/workflows/release.yml"), "utf8");

/** The files a `gh release create` line attaches (its arguments after the tag, before options). */
export function attachedFiles(text: string): string[] {
	const command = /gh release create\s+"?\$\{[^}]+\}"?\s+([^\n]*?)(?:\s+\\\s*\n|\s+--|\n)/.exec(text);
	return command?.[1]?.trim().split(/\s+/) ?? [];
}

describe("release workflow", () => {
	it("reads the files a release attaches (so the check can fail)", () => {
		expect(attachedFiles('gh release create "${GITHUB_REF_NAME}" main.js styles.css \\\n  --draft')).toEqual(["main.js", "styles.css"]);
		expect(attachedFiles("gh release view")).toEqual([]);
	});

	it("runs on a pushed tag, tests and builds first, and attaches main.js, manifest.json and styles.css", () => {
		expect(workflow).toMatch(/on:\s*\n\s+push:\s*\n\s+tags:/);
		const install = workflow.indexOf("npm ci");
		const test = workflow.indexOf("npm test");
		const release = workflow.indexOf("gh release create");
		expect(install).toBeGreaterThan(-1);
		expect(test).toBeGreaterThan(install);
		expect(release).toBeGreaterThan(test);
		expect(attachedFiles(workflow).sort()).toEqual(["main.js", "manifest.json", "styles.css"]);
		expect(existsSync(join(ROOT, "styles.css"))).toBe(true);
	});
});

describe("CI workflow", () => {
	it("installs from the lock file and runs npm test on every push and pull request", () => {
		const ci = readFileSync(join(ROOT, ".github/workflows/ci.yml"), "utf8");
		expect(ci).toMatch(/on:\s*\n\s+push:/);
		expect(ci).toMatch(/\n\s+pull_request:/);
		expect(ci).toMatch(/- run: npm ci\n/);
		expect(ci).toMatch(/- run: npm test\n/);
		expect(ci.indexOf("npm ci")).toBeLessThan(ci.indexOf("npm test"));
	});
});
