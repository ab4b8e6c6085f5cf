// manifest.json follows Obsidian's submission rules and declares a minAppVersion that covers
// every Obsidian API the code uses (the highest `@since` in obsidian.d.ts among them).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileImports, ROOT, sourceFiles } from "./sourceGraph";

interface Manifest {
	id: string;
	name: string;
	version: string;
	minAppVersion: string;
	description: string;
	isDesktopOnly?: boolean;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(ROOT, path), "utf8")) as T;

export function compareVersions(a: string, b: string): number {
	const pa = a.split(".").map(Number);
	const pb = b.split(".").map(Number);
	for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
		const d = (pa[i] ?? 0) - (pb[i] ?? 0);
		if (d !== 0) return Math.sign(d);
	}
	return 0;
}

/** `@since` of each top-level export in a .d.ts, from the JSDoc just above its declaration. */
export function topLevelSince(dts: string): Map<string, string> {
	const out = new Map<string, string>();
	const re = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export\s+(?:declare\s+)?(?:abstract\s+)?(?:class|function|const|let|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g;
	for (const m of dts.matchAll(re)) {
		const since = /@since\s+([\d.]+)/.exec(m[1] ?? "")?.[1];
		if (since && m[2]) out.set(m[2], since);
	}
	return out;
}

/** `@since` of a member of a class or interface in a .d.ts. */
export function memberSince(dts: string, owner: string, member: string): string | undefined {
	const start = dts.search(new RegExp(`export\\s+(?:declare\\s+)?(?:abstract\\s+)?(?:class|interface)\\s+${owner}\\b`));
	if (start < 0) return undefined;
	const end = dts.indexOf("\n}", start);
	const body = dts.slice(start, end);
	const m = new RegExp(`/\\*\\*((?:(?!\\*/)[\\s\\S])*)\\*/\\s*${member}\\b`).exec(body);
	return m ? /@since\s+([\d.]+)/.exec(m[1] ?? "")?.[1] : undefined;
}

const dts = readFileSync(join(ROOT, "node_modules/obsidian/obsidian.d.ts"), "utf8");
const manifest = readJson<Manifest>("manifest.json");

describe("the @since scanner (so the rule can fail)", () => {
	it("reads top-level and member @since tags", () => {
		const sample = `/**\n * @public\n * @since 1.2.3\n */\nexport class Foo {\n    /**\n     * @since 1.5.0\n     */\n    bar: string;\n}\n/** @since 0.9 */\nexport function baz(): void;`;
		expect(topLevelSince(sample)).toEqual(new Map([["Foo", "1.2.3"], ["baz", "0.9"]]));
		expect(memberSince(sample, "Foo", "bar")).toBe("1.5.0");
		expect(compareVersions("1.11.4", "1.9.10")).toBe(1);
		expect(topLevelSince(dts).get("SecretStorage")).toBe("1.11.4");
	});
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

	it("declares a minAppVersion no older than the newest Obsidian API the code uses", () => {
		const since = topLevelSince(dts);
		const used = new Map<string, string>();
		for (const file of sourceFiles()) {
			for (const ref of fileImports(file)) {
				if (ref.specifier !== "obsidian") continue;
				for (const name of ref.names) {
					const v = since.get(name);
					if (v) used.set(name, v);
				}
			}
			const text = readFileSync(file, "utf8");
			if (/\.secretStorage\b/.test(text)) used.set("App.secretStorage", memberSince(dts, "App", "secretStorage") ?? "0");
		}
		expect(used.size).toBeGreaterThan(3);
		const [newestName, newest] = [...used].reduce((a, b) => (compareVersions(b[1], a[1]) > 0 ? b : a));
		expect(compareVersions(manifest.minAppVersion, newest), `minAppVersion ${manifest.minAppVersion} is older than ${newest}, needed by ${newestName}`).toBeGreaterThanOrEqual(0);
	});
});
