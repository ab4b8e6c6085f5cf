// Every import rule of the repo, on one scanner (./sourceGraph): the engine's layers point one way and
// never reach 'obsidian', the UI or the wiring; the plugin entry reaches no Node builtin or Node-only
// global through static imports (mobile has none); the Node-only modules (the desktop transport, the
// Node session store) stay off the plugin's path; no import cycles in src/.
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { layeringViolations } from "./layering";
import { nodeOnlyIdentifiers } from "./nodeGlobals";
import { cyclesIn, fileImports, findCycles, importsOf, reachableFrom, rel, ROOT, sourceFiles, type ImportRef } from "./sourceGraph";

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

	it("finds imports that point up a layer, type-only ones included", () => {
		const at = (f: string): string => join(ROOT, f);
		const imports = new Map<string, string[]>([
			[at("src/providers/p.ts"), ["../chat/c", "../core/types"]],
			[at("src/sessions/s.ts"), ["obsidian", "../ui/view"]],
			[at("src/core/types.ts"), ["./timers"]],
			[at("src/core/timers.ts"), ["../providers/p"]],
			[at("src/chat/c.ts"), ["../providers/p", "../sessions/s", "../core/types"]],
			[at("src/wiring/obsidianStore.ts"), ["obsidian", "../ui/host"]],
			[at("src/ui/panel/v.ts"), ["../../wiring/chatRuntime", "../../core/types"]],
			[at("src/chat/d.ts"), ["../settings/settings"]],
			[at("src/context/fit.ts"), ["../chat/promptCost", "../core/types", "./terms", "obsidian"]],
			[at("src/chat/usesContext.ts"), ["../context/fit"]],
			[at("src/chat/e.ts"), ["../i18n/index"]],
			[at("src/i18n/x.ts"), ["obsidian", "../ui/view", "../core/types", "./en"]],
			[at("src/ui/y.ts"), ["../i18n/index"]],
			[at("src/settings/z.ts"), ["../i18n/index"]],
			[at("src/tools/t.ts"), ["../context/NoteIndex", "../core/types", "./paths", "../chat/tokens", "../ui/view", "obsidian"]],
			[at("src/chat/usesTools.ts"), ["../tools/t"]],
			[at("src/settings/rules.ts"), ["../tools/t"]],
		]);
		const refs = (f: string): ImportRef[] => (imports.get(f) ?? []).map((specifier) => ({ specifier, kind: "type", names: [], line: 1 }));
		const resolve = (from: string, spec: string): string | undefined => (spec.startsWith(".") ? `${join(from, "..", spec)}.ts` : undefined);
		expect(layeringViolations([...imports.keys()], refs, resolve).map((v) => v.split(":")[0])).toEqual([
			"src/providers/p.ts → src/chat/c.ts",
			"src/sessions/s.ts → obsidian",
			"src/sessions/s.ts → src/ui/view.ts",
			"src/core/types.ts → src/core/timers.ts",
			"src/core/timers.ts → src/providers/p.ts",
			"src/ui/panel/v.ts → src/wiring/chatRuntime.ts",
			"src/chat/d.ts → src/settings/settings.ts",
			"src/context/fit.ts → src/chat/promptCost.ts",
			"src/context/fit.ts → obsidian",
			"src/chat/e.ts → src/i18n/index.ts",
			"src/i18n/x.ts → obsidian",
			"src/i18n/x.ts → src/ui/view.ts",
			"src/i18n/x.ts → src/core/types.ts",
			"src/tools/t.ts → src/chat/tokens.ts",
			"src/tools/t.ts → src/ui/view.ts",
			"src/tools/t.ts → src/ui/view.ts",
			"src/tools/t.ts → obsidian",
			"src/chat/usesTools.ts → src/tools/t.ts",
		]);
	});
});

describe("engine layering", () => {
	it("no engine module imports the UI, the wiring or 'obsidian'; the UI never imports the wiring; providers and sessions never import src/chat; src/context imports only src/core; src/tools only src/context and src/core, and the chat engine never src/tools; src/core imports only itself, and its vocabulary nothing; the chat engine never imports src/i18n, which imports nothing outside itself", () => {
		const files = sourceFiles();
		expect(files.map(rel)).toEqual(expect.arrayContaining(["src/core/types.ts", "src/context/relevanceFit.ts", "src/context/NoteIndex.ts", "src/tools/permissions.ts", "src/chat/ChatService.ts", "src/providers/index.ts", "src/sessions/SessionManager.ts", "src/settings/settingsStore.ts", "src/ui/panel/DiscoverView.ts", "src/wiring/chatRuntime.ts", "src/i18n/index.ts"]));
		expect(layeringViolations(files)).toEqual([]);
	});
});

describe("engine isolation", () => {
	it("nothing in the engine imports 'obsidian', directly or through what headless.ts reaches", () => {
		const engine = sourceFiles().filter((f) => {
			const r = rel(f);
			return /^src\/(core|context|chat|providers|sessions|settings|mcp)\//.test(r) || r === "src/headless.ts";
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

describe("Node-only modules stay off the plugin's path", () => {
	const nodeImports = (file: string): string[] => fileImports(file).filter((r) => r.kind === "static" && isNodeBuiltin(r.specifier)).map((r) => `${rel(file)} → ${r.specifier}`);

	it("nothing statically reachable from the provider entry or the headless surface imports a Node builtin, except the Node session store", () => {
		for (const entry of ["src/providers/index.ts", "src/headless.ts"]) {
			const reached = [...reachableFrom([join(ROOT, entry)], ["static"]).keys()];
			expect(reached.length).toBeGreaterThan(1);
			expect(reached.map(rel)).not.toContain("src/providers/nodeTransport.ts");
			expect(reached.flatMap(nodeImports).filter((o) => !o.startsWith("src/sessions/nodeStore.ts"))).toEqual([]);
		}
	});

	it("the MCP client is not on the plugin's startup path: nothing reachable from src/main.ts through static imports is in src/mcp", () => {
		const reached = [...reachableFrom([join(ROOT, "src/main.ts")], ["static"]).keys()].map(rel);
		expect(reached).toContain("src/main.ts");
		expect(reached.filter((f) => f.startsWith("src/mcp/"))).toEqual([]);
	});

	it("the MCP stdio channel is loaded only dynamically, and requires child_process only after the desktop check", () => {
		const client = join(ROOT, "src/mcp/McpClient.ts");
		expect(fileImports(client).filter((r) => r.kind === "dynamic" || r.kind === "require").map((r) => r.specifier)).toEqual(["./stdioChannel"]);
		const stdio = join(ROOT, "src/mcp/stdioChannel.ts");
		expect(nodeImports(stdio)).toEqual([]);
		const source = readFileSync(stdio, "utf8");
		const guard = source.indexOf("if (!Platform.isDesktop) throw");
		const requires = [...source.matchAll(/require\("node:/g)].map((m) => m.index);
		expect(guard).toBeGreaterThan(0);
		expect(requires.length).toBe(1);
		for (const at of requires) expect(at).toBeGreaterThan(guard);
	});

	it("the Node transport is loaded only dynamically, and requires Node modules only behind the desktop check", () => {
		const transport = join(ROOT, "src/providers/transport.ts");
		expect(fileImports(transport).filter((r) => r.kind === "dynamic" || r.kind === "require").map((r) => r.specifier)).toEqual(["./nodeTransport"]);
		const nodeTransport = join(ROOT, "src/providers/nodeTransport.ts");
		expect(nodeImports(nodeTransport)).toEqual([]);
		const source = readFileSync(nodeTransport, "utf8");
		const guard = source.indexOf("if (Platform.isDesktop)");
		const requires = [...source.matchAll(/require\("node:/g)].map((m) => m.index);
		expect(requires.length).toBe(2);
		for (const at of requires) expect(at).toBeGreaterThan(guard);
	});

	it("the Node session store is unreachable from src/main.ts by any import, and the headless surface reaches it but nothing of the UI or the wiring", () => {
		const fromMain = [...reachableFrom([join(ROOT, "src/main.ts")], ["static", "dynamic", "require"]).keys()].map(rel);
		expect(fromMain).toContain("src/main.ts");
		expect(fromMain).not.toContain("src/sessions/nodeStore.ts");
		const fromHeadless = [...reachableFrom([join(ROOT, "src/headless.ts")], ["static", "type", "dynamic", "require"]).keys()].map(rel);
		expect(fromHeadless).toContain("src/sessions/nodeStore.ts");
		expect(fromHeadless.filter((f) => f.startsWith("src/wiring/") || f.startsWith("src/ui/"))).toEqual([]);
	});

	it("in src/sessions, nothing imports obsidian and only nodeStore imports Node modules", () => {
		for (const file of sourceFiles(join(ROOT, "src/sessions"))) {
			const name = rel(file);
			const specs = fileImports(file).map((r) => r.specifier);
			expect({ name, obsidian: specs.includes("obsidian") }).toEqual({ name, obsidian: false });
			expect({ name, node: specs.some(isNodeBuiltin) }).toEqual({ name, node: name === "src/sessions/nodeStore.ts" });
		}
	});
});

describe("import cycles", () => {
	it("src/ has none (type-only imports excluded: they vanish at build time)", () => {
		expect(findCycles(sourceFiles(), ["static", "dynamic", "require"])).toEqual([]);
	});

	it("src/providers has none counting type-only imports either (the transports share their types from a third file)", () => {
		expect(findCycles(sourceFiles(join(ROOT, "src/providers")), ["static", "type", "dynamic", "require"])).toEqual([]);
	});
});

describe("where tests live", () => {
	it("every test is under tests/, none beside the source in src/", () => {
		const inSrc = readdirSync(join(ROOT, "src"), { recursive: true, encoding: "utf8" }).filter((f) => /\.test\.[cm]?[jt]s$/.test(f));
		expect(inSrc).toEqual([]);
	});
});
