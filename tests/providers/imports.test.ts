// Mobile has no Node modules: nothing in the static import graph of the plugin may reach one. The
// Node transport is reached only through loadNodeTransport()'s dynamic import.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(__dirname, "../..");
/** Value imports and re-exports (`import type` / `export type` erase at build time). */
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)[^'";]*?from\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']/gm;
const DYNAMIC = /import\(\s*["']([^"']+)["']\s*\)|require\(\s*["']([^"']+)["']\s*\)/g;

const isNodeBuiltin = (spec: string): boolean => spec.startsWith("node:") || builtinModules.includes(spec);

function staticSpecifiers(file: string): string[] {
	return [...readFileSync(file, "utf8").matchAll(STATIC_IMPORT)].map((m) => m[1] ?? m[2] ?? "");
}

function resolveLocal(from: string, spec: string): string | undefined {
	if (!spec.startsWith(".")) return undefined;
	const base = resolve(dirname(from), spec);
	return [`${base}.ts`, join(base, "index.ts")].find((p) => existsSync(p));
}

function staticGraph(entry: string): Map<string, string[]> {
	const graph = new Map<string, string[]>();
	const stack = [entry];
	while (stack.length > 0) {
		const file = stack.pop();
		if (file === undefined || graph.has(file)) continue;
		const specs = staticSpecifiers(file);
		graph.set(file, specs);
		for (const spec of specs) {
			const next = resolveLocal(file, spec);
			if (next) stack.push(next);
		}
	}
	return graph;
}

describe("provider module boundaries", () => {
	for (const entry of ["src/main.ts", "src/headless.ts", "src/providers/index.ts"]) {
		it(`no Node module is statically reachable from ${entry}`, () => {
			const graph = staticGraph(join(root, entry));
			if (entry !== "src/main.ts") expect(graph.size).toBeGreaterThan(1);
			const offenders = [...graph].flatMap(([file, specs]) => specs.filter(isNodeBuiltin).map((s) => `${relative(root, file)} → ${s}`));
			// The session store for Node is another team's and is exported from headless only.
			expect(offenders.filter((o) => o.startsWith("src/providers"))).toEqual([]);
			if (entry !== "src/headless.ts") expect(offenders).toEqual([]);
			expect([...graph.keys()].map((f) => relative(root, f))).not.toContain("src/providers/nodeTransport.ts");
		});
	}

	it("the Node transport is loaded only dynamically, and requires Node modules only behind the desktop check", () => {
		const transport = readFileSync(join(root, "src/providers/transport.ts"), "utf8");
		expect([...transport.matchAll(DYNAMIC)].map((m) => m[1] ?? m[2])).toEqual(["./nodeTransport"]);
		const node = readFileSync(join(root, "src/providers/nodeTransport.ts"), "utf8");
		expect(staticSpecifiers(join(root, "src/providers/nodeTransport.ts")).filter(isNodeBuiltin)).toEqual([]);
		const guard = node.indexOf("if (Platform.isDesktop)");
		const requires = [...node.matchAll(/require\("node:/g)].map((m) => m.index);
		expect(requires.length).toBe(2);
		for (const at of requires) expect(at).toBeGreaterThan(guard);
	});

	it("the engine's provider files never import obsidian", () => {
		const dir = join(root, "src/providers");
		for (const name of readdirSync(dir).filter((n) => n.endsWith(".ts"))) {
			const source = readFileSync(join(dir, name), "utf8");
			expect({ name, obsidian: /from\s*["']obsidian["']|require\(\s*["']obsidian["']/.test(source) }).toEqual({ name, obsidian: false });
		}
	});
});
