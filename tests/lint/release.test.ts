// The tagged-release workflow: what Obsidian's plugin directory downloads must be attached.
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
