// manifest.json follows Obsidian's submission rules and declares as minAppVersion exactly the
// newest `@since` in obsidian.d.ts among the APIs the code uses, members included (a method can
// be newer than its class: SecretComponent is 1.11.1, its setValue 1.11.4).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { compareVersions, obsidianUses, obsidianUsesIn } from "./obsidianUsage";
import { ROOT } from "./sourceGraph";

interface Manifest {
	id: string;
	name: string;
	version: string;
	minAppVersion: string;
	description: string;
	isDesktopOnly?: boolean;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(ROOT, path), "utf8")) as T;

const manifest = readJson<Manifest>("manifest.json");

/** A program of one in-memory file next to the real obsidian.d.ts, to test the scanner. */
function sampleProgram(code: string): ts.Program {
	const file = join(ROOT, "src", "__sample__.ts");
	const host = ts.createCompilerHost({ strict: true, moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2018, types: [], skipLibCheck: true });
	const read = host.readFile.bind(host);
	host.readFile = (f) => (f === file ? code : read(f));
	const exists = host.fileExists.bind(host);
	host.fileExists = (f) => f === file || exists(f);
	const getSource = host.getSourceFile.bind(host);
	host.getSourceFile = (f, lang) => (f === file ? ts.createSourceFile(f, code, lang) : getSource(f, lang));
	return ts.createProgram([file], { strict: true, moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2018, types: [], skipLibCheck: true, noEmit: true }, host);
}

describe("the @since scanner (so the rule can fail)", () => {
	it("finds members reached through values, with their own @since", () => {
		const program = sampleProgram(`import { App, SecretComponent } from "obsidian";\nexport function f(app: App, el: HTMLElement): void {\n\tnew SecretComponent(app, el).setValue(app.secretStorage.getSecret("a") ?? "");\n}\n`);
		const uses = obsidianUsesIn(program, (f) => f.endsWith("__sample__.ts"));
		const since = new Map(uses.map((u) => [`${u.owner ?? ""}.${u.name}`, u.since]));
		expect(since.get(".SecretComponent")).toBe("1.11.1");
		expect(since.get("SecretComponent.setValue")).toBe("1.11.4");
		expect(since.get("App.secretStorage")).toBe("1.11.4");
		expect(since.get("SecretStorage.getSecret")).toBe("1.11.4");
		expect(compareVersions("1.11.4", "1.9.10")).toBe(1);
		expect(compareVersions("1.11", "1.11.0")).toBe(0);
	}, 60_000);
});

describe("manifest.json", () => {
	it("has the plugin's id, name and a short description ending with a period", () => {
		expect(manifest.id).toBe("discover-chat");
		expect(manifest.name).toBe("Discover");
		expect(manifest.description.length).toBeLessThanOrEqual(250);
		expect(manifest.description).toMatch(/\.$/);
		// Obsidian's review rules: no "Obsidian" and no "plugin" in the description.
		expect(manifest.description).not.toMatch(/obsidian|plugin/i);
		expect(manifest.isDesktopOnly).toBe(false);
	});

	it("keeps its version in step with package.json and versions.json", () => {
		expect(manifest.version).toBe(readJson<{ version: string }>("package.json").version);
		expect(readJson<Record<string, string>>("versions.json")[manifest.version]).toBe(manifest.minAppVersion);
	});

	it("declares as minAppVersion the newest @since among the Obsidian APIs the code uses", () => {
		const dated = obsidianUses().filter((u): u is typeof u & { since: string } => u.since !== undefined);
		expect(dated.length).toBeGreaterThan(20);
		const newest = dated.reduce((a, b) => (compareVersions(b.since, a.since) > 0 ? b : a));
		const name = `${newest.owner ? `${newest.owner}.` : ""}${newest.name} (${newest.where})`;
		// Older would break on those apps; newer would turn away people the plugin works for.
		expect(manifest.minAppVersion, `the newest API used is ${name}, since ${newest.since}`).toBe(newest.since);
		// A type-checked program of src/: seconds, not milliseconds, on a busy machine.
	}, 60_000);
});
