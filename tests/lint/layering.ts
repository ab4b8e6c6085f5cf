// The layers, as data, and the imports that break them. Bottom up:
//   src/core (the shared vocabulary core/types.ts, timers, abort helpers)
//   src/context (relevance fitting and the vault's lexical index: imports only src/core)
//   src/tools (the built-in vault tools and permission rules over an injected VaultAccess: imports
//     only src/core and src/context; the chat engine runs whatever tools it is handed, never these)
//   src/providers, src/sessions
//   src/chat
//   src/settings (the saved settings, their migration and loading; engine-safe)
//   src/agents (agents as data: checking an agent note's front matter, the notes Discover writes)
//   src/mcp (the MCP client: JSON-RPC, stdio and Streamable HTTP; on src/core, src/providers'
//     transports and src/tools' shape; the chat engine runs the tools it is handed, never this)
//   src/editor (Edit with Discover's hunk model and review state, on @codemirror/state and src/tools' diff)
// which together are the engine (never 'obsidian'); then the UI (src/ui), then the Obsidian wiring
// (src/wiring: builds the engine for the panel, registers views and commands), then src/main.ts.
// Imports point down, never up.
// src/i18n (the UI's message catalogue and Intl formatters) sits beside the UI: the UI, the wiring,
// main.ts and src/settings (whose names and checks the settings tab shows) use it; the chat engine
// never does (its texts are English, for the model, scripts and the terminal); and it imports nothing
// outside itself: not 'obsidian' (main.ts passes getLanguage() in), not the engine.
import { fileImports, rel, resolveLocal, type ImportRef } from "./sourceGraph";

export const ENGINE = /^src\/(core|context|tools|chat|providers|sessions|settings|agents|mcp|editor)\//;

interface LayerRule {
	/** Which files the rule governs (repo-relative paths). */
	applies: (file: string) => boolean;
	/** What those files may not import: a package name, or a repo-relative path test for local files. */
	forbids: (target: { packageName?: string; file?: string }) => boolean;
	why: string;
}

const isEngine = (f: string): boolean => ENGINE.test(f);

/** The UI's language: catalogue, t() and formatters. */
export const I18N = /^src\/i18n\//;
const isAboveUi = (f: string): boolean => f.startsWith("src/wiring/") || f === "src/main.ts";

export const LAYER_RULES: LayerRule[] = [
	{
		applies: (f) => isEngine(f) && !f.startsWith("src/settings/"),
		forbids: (t) => t.file !== undefined && I18N.test(t.file),
		why: "the engine's texts are English (for the model, scripts and the terminal); the UI translates what it shows",
	},
	{
		applies: (f) => I18N.test(f),
		forbids: (t) => t.packageName !== undefined || (t.file !== undefined && !I18N.test(t.file)),
		why: "src/i18n imports nothing outside itself: no 'obsidian' (the UI passes the language in), no engine, no UI",
	},
	{
		applies: isEngine,
		forbids: (t) => t.packageName === "obsidian" || (t.file !== undefined && (t.file.startsWith("src/ui/") || isAboveUi(t.file))),
		why: "the engine imports neither the UI, the Obsidian wiring nor 'obsidian'",
	},
	{
		applies: (f) => f.startsWith("src/ui/"),
		forbids: (t) => t.file !== undefined && isAboveUi(t.file),
		why: "the UI is handed what it needs by the wiring, never imports it",
	},
	{
		applies: (f) => /^src\/(core|providers|sessions|chat)\//.test(f),
		forbids: (t) => t.file?.startsWith("src/settings/") === true,
		why: "the plugin's saved settings sit above the chat engine, which takes ChatSettings",
	},
	{
		applies: (f) => /^src\/(providers|sessions)\//.test(f),
		forbids: (t) => t.file?.startsWith("src/chat/") === true,
		why: "providers and sessions sit below the chat engine",
	},
	{
		applies: (f) => f.startsWith("src/context/"),
		forbids: (t) => t.file !== undefined && !t.file.startsWith("src/context/") && !t.file.startsWith("src/core/"),
		why: "src/context sits just above src/core: chat may use it, it uses nothing above core (estimators come in as a parameter)",
	},
	{
		applies: (f) => f.startsWith("src/tools/"),
		forbids: (t) => t.file !== undefined && !/^src\/(tools|context|core)\//.test(t.file),
		why: "src/tools sits on src/context and src/core only: the wiring hands it the vault, the loop runs it",
	},
	{
		applies: (f) => /^src\/(core|context|providers|sessions|chat)\//.test(f),
		forbids: (t) => t.file?.startsWith("src/tools/") === true,
		why: "the chat engine runs the tools it is handed (ChatServiceOptions.tools); it never needs the vault tools themselves",
	},
	{
		applies: (f) => f.startsWith("src/mcp/"),
		forbids: (t) => t.file !== undefined && !/^src\/(mcp|core|providers|tools)\//.test(t.file),
		why: "src/mcp (the MCP client) sits on src/core, the providers' transports and the tools' shape; the wiring hands its tools to the loop",
	},
	{
		applies: (f) => /^src\/(core|context|providers|sessions|chat|tools)\//.test(f),
		forbids: (t) => t.file?.startsWith("src/mcp/") === true,
		why: "the chat engine runs the tools it is handed; it never needs the MCP client itself",
	},
	{
		applies: (f) => f.startsWith("src/core/"),
		forbids: (t) => t.file !== undefined && !t.file.startsWith("src/core/"),
		why: "src/core is the bottom layer",
	},
	{
		applies: (f) => f === "src/core/types.ts",
		forbids: (t) => t.file !== undefined,
		why: "the vocabulary imports nothing from the project",
	},
];

/** "from → to: why (line n)" for every import (any kind, type-only included) that breaks a rule. */
export function layeringViolations(files: string[], importsOfFile: (f: string) => ImportRef[] = fileImports, resolve: (from: string, spec: string) => string | undefined = resolveLocal): string[] {
	const out: string[] = [];
	for (const file of files) {
		const from = rel(file);
		const rules = LAYER_RULES.filter((r) => r.applies(from));
		if (rules.length === 0) continue;
		for (const ref of importsOfFile(file)) {
			const local = resolve(file, ref.specifier);
			const target = local !== undefined ? { file: rel(local) } : ref.specifier.startsWith(".") ? { file: ref.specifier } : { packageName: ref.specifier };
			for (const rule of rules) if (rule.forbids(target)) out.push(`${from} → ${target.file ?? target.packageName}: ${rule.why} (line ${ref.line})`);
		}
	}
	return out;
}
