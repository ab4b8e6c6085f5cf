// scripts/install-vault.mjs (`npm run vault`), run as a new user runs it, in a copy of the repository
// whose build only stands in for the real one (the production build has tests of its own).
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT } from "../lint/sourceGraph";

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A repository copy: the script, the plugin's three files, dependencies "installed", a no-op build. */
function repoCopy(): string {
	dir = mkdtempSync(join(tmpdir(), "discover-vault-"));
	const repo = join(dir, "repo");
	mkdirSync(join(repo, "scripts"), { recursive: true });
	mkdirSync(join(repo, "node_modules"));
	mkdirSync(join(repo, "demo-vault"));
	copyFileSync(join(ROOT, "scripts/install-vault.mjs"), join(repo, "scripts/install-vault.mjs"));
	for (const f of ["manifest.json", "styles.css"]) copyFileSync(join(ROOT, f), join(repo, f));
	writeFileSync(join(repo, "main.js"), "module.exports = {};\n");
	writeFileSync(join(repo, "package.json"), JSON.stringify({ name: "discover-copy", private: true, scripts: { build: "node -e \"\"" } }));
	return repo;
}

function install(repo: string, ...args: string[]): { status: number | null; lines: string[]; stderr: string } {
	const r = spawnSync(process.execPath, [join(repo, "scripts/install-vault.mjs"), ...args], { cwd: repo, encoding: "utf8" });
	return { status: r.status, lines: r.stdout.trim().split("\n"), stderr: r.stderr };
}

describe("npm run vault", () => {
	it("installs into the demo vault and ends by naming the vault's root as the folder to open", () => {
		const repo = repoCopy();
		const { status, lines } = install(repo);
		expect(status).toBe(0);
		const vault = join(repo, "demo-vault");
		expect(existsSync(join(vault, ".obsidian/plugins/discover-chat/main.js"))).toBe(true);
		expect(JSON.parse(readFileSync(join(vault, ".obsidian/community-plugins.json"), "utf8"))).toEqual(["discover-chat"]);
		expect(lines[lines.length - 1]).toBe(`Open this folder as a vault: ${vault}`);
		// No line tells the person to open the plugin's own folder.
		expect(lines.join("\n")).not.toContain(join(vault, ".obsidian"));
		expect(lines.join("\n")).toMatch(/ollama pull llama3\.2/);
	});

	it("names the absolute root of a vault given by a relative path", () => {
		const repo = repoCopy();
		mkdirSync(join(dir, "My Notes"));
		const { status, lines } = install(repo, "--vault", "../My Notes");
		expect(status).toBe(0);
		expect(lines[lines.length - 1]).toBe(`Open this folder as a vault: ${join(dir, "My Notes")}`);
	});

	it("refuses a path inside a vault's .obsidian folder and names the vault's root instead", () => {
		const repo = repoCopy();
		const plugins = join(dir, "Notes/.obsidian/plugins");
		mkdirSync(plugins, { recursive: true });
		const { status, stderr } = install(repo, "--vault", plugins);
		expect(status).toBe(1);
		expect(stderr).toContain(`Pass the vault's own folder: ${join(dir, "Notes")}`);
		expect(existsSync(join(plugins, ".obsidian"))).toBe(false);
	});
});
