// The engine's layers, as data, and the imports that break them. Layers, bottom up:
//   src/core (the shared vocabulary core/types.ts, timers, abort helpers)
//   src/providers, src/sessions
//   src/chat
// and above the engine the UI, the Obsidian wiring and src/main.ts. Imports point down, never up.
import { fileImports, rel, resolveLocal, type ImportRef } from "./sourceGraph";

/** The Obsidian-facing store lives beside the sessions but is wiring, not engine. */
export const WIRING_IN_ENGINE_FOLDERS = ["src/wiring/obsidianStore.ts"];

export const ENGINE = /^src\/(core|chat|providers|sessions)\//;

interface LayerRule {
	/** Which files the rule governs (repo-relative paths). */
	applies: (file: string) => boolean;
	/** What those files may not import: a package name, or a repo-relative path test for local files. */
	forbids: (target: { packageName?: string; file?: string }) => boolean;
	why: string;
}

const isEngine = (f: string): boolean => ENGINE.test(f) && !WIRING_IN_ENGINE_FOLDERS.includes(f);

export const LAYER_RULES: LayerRule[] = [
	{
		applies: isEngine,
		forbids: (t) => t.packageName === "obsidian" || (t.file !== undefined && (t.file.startsWith("src/ui/") || t.file === "src/main.ts" || WIRING_IN_ENGINE_FOLDERS.includes(t.file))),
		why: "the engine imports neither the UI, the Obsidian wiring nor 'obsidian'",
	},
	{
		applies: (f) => /^src\/(providers|sessions)\//.test(f) && isEngine(f),
		forbids: (t) => t.file?.startsWith("src/chat/") === true,
		why: "providers and sessions sit below the chat engine",
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
