import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(__dirname, "../..");
const IMPORT = /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|require\(\s*["']([^"']+)["']\s*\)/g;

function specifiers(file: string): string[] {
	const source = readFileSync(file, "utf8");
	return [...source.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
}

function resolveLocal(from: string, spec: string): string | undefined {
	if (!spec.startsWith(".")) return undefined;
	const base = resolve(dirname(from), spec);
	return [base + ".ts", join(base, "index.ts"), base].find((p) => existsSync(p) && p.endsWith(".ts"));
}

/** Every local file reachable from `entry` through static imports, dynamic imports and requires. */
function reachable(entry: string): Set<string> {
	const seen = new Set<string>();
	const stack = [entry];
	while (stack.length > 0) {
		const file = stack.pop();
		if (file === undefined || seen.has(file)) continue;
		seen.add(file);
		for (const spec of specifiers(file)) {
			const next = resolveLocal(file, spec);
			if (next !== undefined) stack.push(next);
		}
	}
	return new Set([...seen].map((p) => relative(root, p).replace(/\\/g, "/")));
}

describe("session module boundaries", () => {
	it("NodeFileStore cannot be reached from the plugin entry (mobile has no Node)", () => {
		const files = reachable(join(root, "src/main.ts"));
		expect(files.has("src/main.ts")).toBe(true);
		expect(files.has("src/sessions/nodeStore.ts")).toBe(false);
	});

	it("only obsidianStore imports obsidian and only nodeStore imports Node modules", () => {
		const dir = join(root, "src/sessions");
		for (const name of readdirSync(dir).filter((n) => n.endsWith(".ts") && !n.endsWith(".test.ts"))) {
			const specs = specifiers(join(dir, name));
			expect({ name, obsidian: specs.includes("obsidian") }).toEqual({ name, obsidian: name === "obsidianStore.ts" });
			const node = specs.some((s) => s.startsWith("node:") || ["fs", "path", "os"].includes(s));
			expect({ name, node }).toEqual({ name, node: name === "nodeStore.ts" });
		}
	});

	it("the headless surface exports the Node store but not the Obsidian one", () => {
		const files = reachable(join(root, "src/headless.ts"));
		expect(files.has("src/sessions/nodeStore.ts")).toBe(true);
		expect(files.has("src/sessions/obsidianStore.ts")).toBe(false);
	});
});
