// version-bump.mjs, as `npm version` runs it: in a copy of the repository's two files.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT } from "../lint/sourceGraph";

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function bump(version: string | undefined): { status: number; manifest: string; versions: string } {
	dir = mkdtempSync(join(tmpdir(), "discover-bump-"));
	for (const f of ["manifest.json", "versions.json"]) copyFileSync(join(ROOT, f), join(dir, f));
	const env: Record<string, string | undefined> = { ...process.env };
	delete env.npm_package_version;
	if (version !== undefined) env.npm_package_version = version;
	let status = 0;
	try {
		execFileSync(process.execPath, [join(ROOT, "version-bump.mjs")], { cwd: dir, env, stdio: "pipe" });
	} catch (e) {
		status = (e as { status?: number }).status ?? 1;
	}
	return { status, manifest: readFileSync(join(dir, "manifest.json"), "utf8"), versions: readFileSync(join(dir, "versions.json"), "utf8") };
}

describe("version-bump.mjs", () => {
	it("sets the manifest's version and maps it to minAppVersion, keeping older entries and the files' format", () => {
		const before = JSON.parse(readFileSync(join(ROOT, "manifest.json"), "utf8")) as Record<string, unknown>;
		const oldVersions = JSON.parse(readFileSync(join(ROOT, "versions.json"), "utf8")) as Record<string, string>;
		const { status, manifest, versions } = bump("9.8.7");
		expect(status).toBe(0);
		expect(JSON.parse(manifest)).toEqual({ ...before, version: "9.8.7" });
		expect(JSON.parse(versions)).toEqual({ ...oldVersions, "9.8.7": before.minAppVersion });
		// A bump changes one line, not the whole file's indentation.
		expect(manifest).toBe(readFileSync(join(ROOT, "manifest.json"), "utf8").replace(`"version": "${String(before.version)}"`, '"version": "9.8.7"'));
	});

	it("refuses to run outside npm version", () => {
		const { status, manifest } = bump(undefined);
		expect(status).toBe(1);
		expect(manifest).toBe(readFileSync(join(ROOT, "manifest.json"), "utf8"));
	});
});
