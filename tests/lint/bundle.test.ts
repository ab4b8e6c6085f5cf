// What main.js is made of, built in memory with the release build's own options: only runtime
// dependencies from node_modules (never gpt-tokenizer or another dev tool), only Obsidian and the
// desktop transport's Node modules left to require, and a size that stays small.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import builtins from "builtin-modules";
import esbuild from "esbuild";
import { describe, expect, it } from "vitest";
import { ROOT } from "./sourceGraph";

// Loaded by URL so the script stays outside the TypeScript project (eslint lints it on its own).
// eslint-disable-next-line no-unsanitized/method -- a fixed file of this repository, not input
const config = (await import(pathToFileURL(join(ROOT, "esbuild.config.mjs")).href)) as { buildOptions: (prod: boolean) => esbuild.BuildOptions; EXTERNAL: string[] };
const { buildOptions, EXTERNAL } = config;

/**
 * Minified main.js may grow to this. Measured 2026-11-24: about 512 KB. Of that, the ten message
 * catalogues are about 190 KB (16-25 KB each as UTF-8, `charset`: each repeats the 278 keys, about 5
 * KB), the panel 70 KB, history and settings 28 KB, and the engine the rest (the token model 12 KB,
 * relevance fitting and the vault index about 25 KB, tool calls and the tool loop about 20 KB).
 * The settings tab's Tools section and its strings add about 10 KB; the vault tools (src/tools)
 * add about 20 KB more once the panel runs them (17.9 KB for the six tools and 2.0 KB for the
 * permission rules, minified). The permission prompt's 34 strings in ten languages add 18.1 KB
 * (measured 529.0 → 547.1 KB), and the prompt itself about 8 KB once a tool card mounts it.
 * Branches (regenerate, edit, continue, delete a turn: src/sessions/branch*.ts, stateRecords.ts,
 * src/chat/branching.ts, turnMode.ts) add 12.7 KB (547.1 → 559.8 KB). The panel running the tools
 * adds about 61 KB (measured 547.1 → 607.9 KB before branches): the vault tools 19.8 KB, the prompt
 * 7.5 KB, the tool cards and switch 8.7 KB, their 31 strings in ten languages 19.7 KB, the wiring
 * (Obsidian's VaultAccess, rules over settings) about 5 KB. Images (attach, downscale,
 * header reading, note embeds, their budget, and their 10 strings in ten languages) add about 29 KB
 * (measured 528.7 → 557.8 KB on an older base; 559.8 → 588.4 KB on main with branches; 649.9 KB with the tools too).
 * What each answer cost (answer stats, the info popover, prices in settings, chat totals) adds
 * about 34 KB (measured 547.1 → 578.9 KB before branches and tools; 621.2 → 654.9 KB with them),
 * 19.2 KB of it its 37 strings in ten languages. Agents per chat and budgets per model add about
 * 42 KB (measured 649.9 → 691.9 KB on main with the tools and images): about 24 KB of it their
 * strings in ten languages, the rest the agent check, the agents folder, the header's menu and the
 * settings' Agents and Budgets per model sections. With all of them: 727.1 KB. The engine's
 * warnings, connection findings and error details in ten languages (45 strings, shown from codes
 * instead of English) add about 70 KB (measured 650.1 → 717.4 KB on main with the tools and
 * images; 727.1 → 797.7 KB with everything above). The branch panel (the arrows, the message
 * actions, the edit box, deleted turns in the history: src/ui/panel/branches/, about 9 KB) and its 20
 * strings in ten languages (about 11 KB) add 20.3 KB (797.7 → 818.0 KB). An agent's model checked against the
 * server's list, Use N per model, and their 5 strings in ten languages add 6.5 KB (823.9 → 830.4 KB).
 * Then, on 2026-11-24: summary and refused requests in each answer's cost, the tools switch saved
 * with the chat, tool rows in the history, note embeds rendered inert by the panel with a watch on
 * later fills, edits given back when unsent, and their strings in ten languages: 848.7 KB. Obsidian
 * loads only main.js, so every language ships in it. Agents trusted only as approved (the review
 * card, the approvals and their digest with a pure-JS SHA-256, keys bound to their server, the agent
 * fields for server, key and write folders) and their 39 strings in ten languages add 54.4 KB
 * (848.7 → 903.1 KB). Scoped permissions, content marks, the obsidian:// confirm, image checks and
 * the index's progress, with their strings in ten languages: 939.1 KB on 2026-11-28. Discover's own
 * renderer for model output (src/ui/markdown/, so no other plugin's processors run on it) adds 60.7 KB
 * (943.0 → 1,003.7 KB): marked's lexer about 50 KB of it (the smallest full CommonMark and GitHub
 * parser: micromark with its GFM extensions or markdown-it are larger), the DOM builder, callouts,
 * highlighting through Obsidian's Prism and vault media about 10 KB. On 2026-11-29 the server's count
 * before a first send, the margin that comes back, each server's cache counts and prices, the index
 * size limit, the panel's finish (header, tool rounds, permission card, suggesters' icons, the history's
 * tool rows) and their strings in ten languages: 1,044.2 KB. The editor's first parts (canvases as
 * sources, the diff's anchors, Edit with Discover's 19 strings in ten languages, the widget itself not
 * yet wired into main.js) add 18.6 KB; MCP tools in the chat loop (the schema cleaning per dialect,
 * the turn's outside tools, the MCP card parts and their strings in ten languages) 33.7 KB; the MCP
 * servers' settings, hub and the MCP client (loaded by a dynamic import, which esbuild inlines: it is
 * parsed at load, run only on first use) bring it to 1,197.5 KB. Over half of main.js is the message
 * catalogue's ten languages. A bundled dev tool such as a tokenizer adds megabytes, which this still
 * catches. Edit with Discover wired into the app (the inline widget, its review state, the command,
 * the request through the chat engine, the saved review, its new strings in ten languages) and PDFs
 * as sources (the reader, the panel's PDF sources, their strings) add 31.2 KB: measured 1,199.6 →
 * 1,230.8 KB. The MCP server form (42 strings in ten languages, its validation), elicitation, the
 * "Prompt layout" setting and the other wave's strings bring it to 1,293.7 KB (measured). No
 * dependency was added; over half of main.js is still the ten catalogues. read_note by PDF pages,
 * "Index PDFs" (the index's PDF texts, the setting and its 2 strings in ten languages) and a PDF
 * page's paragraphs and columns add 9.8 KB (measured 1,310.3 → 1,320.1 KB); pdfjs-dist is a
 * devDependency for tests and the bench, never bundled (the first check here would name it). The
 * elicitation form in the panel (its card, form model and 27 strings in ten languages) and the
 * progress card's throttle add 34 KB (measured 1,320.1 → 1,354.1 KB); its multi-select fields
 * (checkbox groups, 2 strings in ten languages) 5.6 KB more (1,360.1 KB). The vault search's
 * max-score pruning (rankTerms.ts, the ranker's bounds and work buffers), the shared pdf.js worker
 * and list_notes' PDFs add 6.3 KB (measured 1,360.1 → 1,366.4 KB); no string, no dependency. The
 * vault index's compaction and block records, and the search's name, heading and phrase lifts, add
 * 6.3 KB (measured 1,366.4 → 1,372.7 KB); no string, no dependency.
 */
const MAX_BYTES = 1_378_000;
/**
 * What the bundle may leave to `require`: Obsidian, and the CodeMirror packages Obsidian's editor
 * runs (Edit with Discover's extension must use those very instances), Node's http(s) for the
 * desktop transport, and child_process for MCP servers that run a command (required inside
 * StdioChannel.start, after its desktop check: never on a phone).
 */
const ALLOWED_REQUIRES = ["obsidian", "@codemirror/state", "@codemirror/view", "node:http", "node:https", "node:child_process"];

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies?: Record<string, string> };

/** The package a bundled node_modules path belongs to, e.g. "@scope/name" or "name". */
export function packageOf(input: string): string | undefined {
	const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
	return m?.[1];
}

/** Problems with a build's metafile: dev packages bundled, unexpected requires. */
export function bundleProblems(meta: esbuild.Metafile, runtimeDeps: string[]): string[] {
	const problems: string[] = [];
	for (const output of Object.values(meta.outputs)) {
		for (const input of Object.keys(output.inputs)) {
			const name = packageOf(input);
			if (name !== undefined && !runtimeDeps.includes(name)) problems.push(`bundles ${name}, which is not a runtime dependency`);
		}
		for (const imp of output.imports) {
			if (!ALLOWED_REQUIRES.includes(imp.path)) problems.push(`requires ${imp.path}`);
		}
	}
	return [...new Set(problems)];
}

async function build(prod: boolean): Promise<esbuild.BuildResult & { metafile: esbuild.Metafile }> {
	return esbuild.build({ ...buildOptions(prod), absWorkingDir: ROOT, write: false, metafile: true, logLevel: "silent" });
}

describe("the build options", () => {
	it("match Obsidian's conventions: CJS, es2018, inline sourcemap in development, minified in production", () => {
		expect(buildOptions(true)).toMatchObject({ entryPoints: ["src/main.ts"], bundle: true, format: "cjs", target: "es2018", outfile: "main.js", minify: true, sourcemap: false, charset: "utf8" });
		expect(buildOptions(false)).toMatchObject({ format: "cjs", target: "es2018", minify: false, sourcemap: "inline" });
	});

	it("leave Obsidian, Electron, CodeMirror, Lezer and every Node builtin external", () => {
		expect(EXTERNAL).toEqual(expect.arrayContaining(["obsidian", "electron", "@codemirror/state", "@codemirror/view", "@lezer/common", ...builtins, ...builtins.map((m) => `node:${m}`)]));
		expect(buildOptions(true).external).toBe(EXTERNAL);
	});
});

describe("main.js", () => {
	it("the checks catch a dev package or a stray require", () => {
		const meta = {
			inputs: {},
			outputs: { "main.js": { bytes: 1, inputs: { "node_modules/gpt-tokenizer/esm/main.js": { bytesInOutput: 1 }, "node_modules/@scope/pkg/x.js": { bytesInOutput: 1 } }, imports: [{ path: "fs", kind: "require-call", external: true }], exports: [], entryPoint: "src/main.ts" } },
		} as unknown as esbuild.Metafile;
		expect(bundleProblems(meta, ["@scope/pkg"])).toEqual(["bundles gpt-tokenizer, which is not a runtime dependency", "requires fs"]);
	});

	it("bundles only runtime dependencies, requires only Obsidian and node:http(s), and stays small", async () => {
		const result = await build(true);
		expect(result.errors).toEqual([]);
		expect(bundleProblems(result.metafile, Object.keys(pkg.dependencies ?? {}))).toEqual([]);
		const out = result.outputFiles?.[0];
		expect(out?.text).toMatch(/^\/\*\nDiscover, an Obsidian plugin/);
		expect(out?.contents.byteLength ?? Infinity).toBeLessThanOrEqual(MAX_BYTES);
	});

	it("writes the catalogues' non-ASCII text as UTF-8, not \\uXXXX escapes (a CJK character is 3 bytes, not 6)", async () => {
		const text = (await build(true)).outputFiles?.[0]?.text ?? "";
		expect(text).toContain("secret storage as “{name}”");
		expect(text).not.toContain("\\u201C{name}");
	});
});
