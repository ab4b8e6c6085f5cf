// Repo-wide import rules: the engine never imports 'obsidian'; the plugin entry reaches no Node
// builtin or Node-only global through static imports (mobile has none); no import cycles in src/.
import { builtinModules } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeOnlyIdentifiers } from "./nodeGlobals";
import { cyclesIn, fileImports, findCycles, importsOf, reachableFrom, rel, ROOT, sourceFiles } from "./sourceGraph";

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const isNodeBuiltin = (spec: string): boolean => spec.startsWith("node:") || NODE_BUILTINS.has(spec) || NODE_BUILTINS.has(spec.split("/")[0] ?? "");

describe("the import scanner (so the rules below can fail)", () => {
	it("sees static, type-only, dynamic and require imports", () => {
		const refs = importsOf(`
			import { Plugin } from "obsidian";
			import type { App } from "obsidian";
			import { type View } from "obsidian";
			export { x } from "./x";
			// import { fake } from "commented-out";
			const later = () => import("./lazy");
			function node() { return require("node:http"); }
			let t: import("./types").T;
		`);
		expect(refs.map((r) => `${r.kind} ${r.specifier}`)).toEqual([
			"static obsidian",
			"type obsidian",
			"type obsidian",
			"static ./x",
			"dynamic ./lazy",
			"require node:http",
			"type ./types",
		]);
		expect(isNodeBuiltin("fs")).toBe(true);
		expect(isNodeBuiltin("node:fs/promises")).toBe(true);
		expect(isNodeBuiltin("eventsource-parser")).toBe(false);
	});

	it("finds cycles", () => {
		const g = new Map([
			[join(ROOT, "a.ts"), [join(ROOT, "b.ts")]],
			[join(ROOT, "b.ts"), [join(ROOT, "a.ts")]],
			[join(ROOT, "c.ts"), [join(ROOT, "a.ts")]],
		]);
		expect(cyclesIn(g)).toEqual([["a.ts", "b.ts"]]);
	});
});

describe("engine isolation", () => {
	it("nothing in the engine imports 'obsidian', directly or through what headless.ts reaches", () => {
		const engine = sourceFiles().filter((f) => {
			const r = rel(f);
			return (/^src\/(chat|providers|sessions)\//.test(r) && r !== "src/sessions/obsidianStore.ts") || r === "src/headless.ts" || r === "src/settings.ts";
		});
		expect(engine.map(rel)).toContain("src/headless.ts");
		const reached = reachableFrom([join(ROOT, "src/headless.ts"), ...engine], ["static", "type", "dynamic", "require"]);
		const offenders: string[] = [];
		for (const [file, chain] of reached) {
			for (const ref of fileImports(file)) {
				if (ref.specifier === "obsidian") offenders.push(`${chain.join(" → ")} imports obsidian (line ${ref.line})`);
			}
		}
		expect(offenders).toEqual([]);
	});
});

describe("mobile safety", () => {
	it("nothing reachable from src/main.ts through static imports imports a Node builtin", () => {
		const reached = reachableFrom([join(ROOT, "src/main.ts")], ["static"]);
		expect(reached.size).toBeGreaterThan(1);
		const offenders: string[] = [];
		for (const [file, chain] of reached) {
			for (const ref of fileImports(file)) {
				if (ref.kind === "static" && isNodeBuiltin(ref.specifier)) offenders.push(`${chain.join(" → ")} imports ${ref.specifier} (line ${ref.line})`);
			}
		}
		expect(offenders).toEqual([]);
	});

	it("nothing reachable from src/main.ts through static imports uses a Node-only global (process, Buffer, require)", () => {
		const reached = [...reachableFrom([join(ROOT, "src/main.ts")], ["static"]).keys()];
		// The rule sees Node where it is: the desktop transport, loaded on demand behind a platform check.
		const transport = nodeOnlyIdentifiers([join(ROOT, "src/providers/nodeTransport.ts")]);
		expect(transport).toEqual(expect.arrayContaining(["src/providers/nodeTransport.ts: process", "src/providers/nodeTransport.ts: require"]));
		expect(reached.map(rel)).not.toContain("src/providers/nodeTransport.ts");
		expect(nodeOnlyIdentifiers(reached)).toEqual([]);
		// A type-checked program of src/: seconds, not milliseconds, on a busy machine.
	}, 60_000);
});

describe("import cycles", () => {
	it("src/ has none (type-only imports excluded: they vanish at build time)", () => {
		expect(findCycles(sourceFiles(), ["static", "dynamic", "require"])).toEqual([]);
	});
});
