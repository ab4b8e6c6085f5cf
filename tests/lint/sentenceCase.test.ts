// UI copy in src/ui is sentence case, as Obsidian's guidelines ask: a capital first letter, and
// capitals later only for proper nouns, acronyms or a new sentence.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import ts from "typescript";
import { rel, ROOT, sourceFiles } from "./sourceGraph";
import { en } from "../../src/i18n/en";
import { join } from "node:path";

/** Words that keep their capital anywhere. */
const PROPER = new Set(["Ollama", "OpenAI", "Anthropic", "Discover", "LM", "Studio", "API", "URL", "URLs", "Markdown", "Obsidian", "Enter", "Shift", "Esc", "Ctrl", "Cmd", "Tab", "vLLM", "Retry-After", "JSON", "HTTP", "HTTPS", "I", "Templater", "Dataview", "DataviewJS", "URI"]);

/** Names shown as they are in every language. */
const NAMES = new Set(["Ollama", "Anthropic", "Discover", "OpenAI", "Base URL"]);

/** Exact strings allowed as they are: the issue asks for a quiet lowercase "stopped" mark. */
const ALLOWED_EXACT = new Set(["stopped"]);
/** Obsidian's own "Settings" window, named as a place. */
const SETTINGS_PLACE = /Settings →/;

/** Calls whose first string argument (or the given one) is shown to people. */
const UI_CALLS: Record<string, number> = {
	setName: 0,
	setDesc: 0,
	setButtonText: 0,
	setTooltip: 0,
	setPlaceholder: 0,
	setTitle: 0,
	setText: 0,
	addOption: 1,
	Notice: 0,
};
const UI_PROPS = new Set(["text", "aria-label", "placeholder", "title", "message"]);
/** Constant tables of UI copy (labels, descriptions), looked up by key where they are shown. */
const UI_TABLE = /(LABELS|NAMES|DESCRIPTIONS|TITLES)$/;

/** True when `node` is a property of an object literal held by a UI table constant. */
function inUiTable(node: ts.PropertyAssignment): boolean {
	const decl = node.parent.parent;
	return ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name) && UI_TABLE.test(decl.name.text);
}

/** The name of the call an object literal is passed to, e.g. "addCommand". */
function enclosingCall(node: ts.Node): string {
	const obj = node.parent;
	const call = obj?.parent;
	if (!obj || !ts.isObjectLiteralExpression(obj) || !call || !ts.isCallExpression(call)) return "";
	const callee = call.expression;
	return ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : "";
}

/** Why `text` is not sentence case, or null when it is. */
export function sentenceCaseProblem(text: string): string | null {
	if (ALLOWED_EXACT.has(text) || SETTINGS_PLACE.test(text)) return null;
	const words = [...text.matchAll(/[A-Za-z][A-Za-z0-9'’-]*/g)];
	const first = words[0];
	if (!first) return null;
	const before = text.slice(0, first.index);
	// Code, paths, ids and placeholders such as "llama3.2" or "http://" are not prose.
	if (/^[a-z][a-z0-9]*[0-9:./_-]/.test(text) || /[/{}=]/.test(before)) return null;
	if (first.index === 0 && /^[a-z]/.test(first[0]) && !PROPER.has(first[0])) return `starts with a lowercase word "${first[0]}"`;
	for (let i = 1; i < words.length; i++) {
		const w = words[i];
		if (!w || !/^[A-Z]/.test(w[0])) continue;
		const word = w[0].replace(/['’]s$/, "");
		const gap = text.slice((words[i - 1]?.index ?? 0) + (words[i - 1]?.[0].length ?? 0), w.index);
		const newSentence = /[.!?:]\s*["“(]?\s*$/.test(gap) || /[("“'‘]$/.test(gap) || /\n/.test(gap);
		const acronym = /^[A-Z0-9]{2,}s?$/.test(word) || /[0-9]/.test(word) || /[a-z][A-Z]/.test(word);
		const proper = PROPER.has(word) || PROPER.has(word.split("-")[0] ?? "");
		if (!newSentence && !acronym && !proper) return `"${word}" is capitalized mid-sentence`;
	}
	return null;
}

interface Found {
	where: string;
	text: string;
}

/** Every UI string literal in `source` (template literals: their fixed text only). */
export function uiStrings(source: string, fileName: string): Found[] {
	const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
	const out: Found[] = [];
	const textOf = (node: ts.Node | undefined): string | null => {
		if (!node) return null;
		if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
		if (ts.isTemplateExpression(node)) return node.head.text || null;
		return null;
	};
	const add = (node: ts.Node, text: string | null): void => {
		if (text && text.trim()) out.push({ where: `${rel(fileName)}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`, text });
	};
	const visit = (node: ts.Node): void => {
		if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
			const callee = node.expression;
			const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : "";
			const argIndex = UI_CALLS[name];
			if (argIndex !== undefined) add(node, textOf(node.arguments?.[argIndex]));
			if (name === "setAttr" || name === "setAttribute") {
				const attr = textOf(node.arguments?.[0]);
				if (attr === "aria-label" || attr === "title" || attr === "placeholder") add(node, textOf(node.arguments?.[1]));
			}
		}
		if (ts.isPropertyAssignment(node)) {
			const key = ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) ? node.name.text : "";
			// A command's name is shown in the palette; other `name`s are usually identifiers.
			if (UI_PROPS.has(key) || (key === "name" && enclosingCall(node) === "addCommand") || inUiTable(node)) add(node, textOf(node.initializer));
		}
		ts.forEachChild(node, visit);
	};
	visit(sf);
	return out;
}

describe("the sentence-case check (so it can fail)", () => {
	it.each([
		["Open chat", null],
		["Test connection", null],
		["Use the model's context length", null],
		["Kept in Obsidian's secret storage. Ollama needs none.", null],
		["OpenAI-compatible (OpenAI, LM Studio, llama.cpp, vLLM)", null],
		["Base URL", null],
		["llama3.2", null],
		["Open Chat", '"Chat" is capitalized mid-sentence'],
		["Test Connection", '"Connection" is capitalized mid-sentence'],
		["open chat", 'starts with a lowercase word "open"'],
	])("%j", (text, problem) => {
		expect(sentenceCaseProblem(text)).toBe(problem);
	});

	it("finds UI strings in calls, attributes and element options", () => {
		const found = uiStrings(
			`new Setting(el).setName("Name here").setDesc(\`Count: \${n}\`);
			el.createEl("button", { text: "Go", attr: { "aria-label": "Go now" } });
			el.setAttr("aria-label", "Close");
			plugin.addCommand({ id: "open", name: "Open chat" });
			const notUi = { id: "x", name: "summarize" };
			const FIELD_LABELS = { maxPromptTokens: "Context size" };
			const issue = { field: "x", message: "Enter a number." };`,
			join(ROOT, "src/ui/x.ts"),
		);
		expect(found.map((f) => f.text).sort()).toEqual(["Close", "Context size", "Count: ", "Enter a number.", "Go", "Go now", "Name here", "Open chat"]);
	});
});

describe("UI copy in the English catalogue, src/ui, src/wiring, main.ts and src/settings", () => {
	it("is sentence case", () => {
		// The UI's text lives in the catalogue (src/i18n/en.ts); what is still written in the code is checked where it is.
		const files = [...sourceFiles(join(ROOT, "src/ui")), ...sourceFiles(join(ROOT, "src/wiring")), join(ROOT, "src/main.ts"), ...sourceFiles(join(ROOT, "src/settings"))];
		const catalogue = Object.entries(en).flatMap(([key, m]) => (typeof m === "string" ? [m] : Object.values(m)).map((text) => ({ where: `src/i18n/en.ts ${key}`, text })));
		const strings = [...catalogue, ...files.flatMap((f) => uiStrings(readFileSync(f, "utf8"), f))];
		expect(catalogue.length).toBeGreaterThan(200);
		const problems = strings.map((s) => ({ ...s, problem: sentenceCaseProblem(s.text) })).filter((s) => s.problem !== null);
		expect(problems).toEqual([]);
	});
});

describe("UI text goes through the message catalogue", () => {
	it("no UI call, attribute or option in src/ui, src/wiring, src/settings or main.ts shows a literal word", () => {
		const files = [...sourceFiles(join(ROOT, "src/ui")), ...sourceFiles(join(ROOT, "src/wiring")), ...sourceFiles(join(ROOT, "src/settings")), join(ROOT, "src/main.ts")];
		// Symbols and product names are not translated.
		const words = files.flatMap((f) => uiStrings(readFileSync(f, "utf8"), f)).filter((s) => /\p{L}{2,}/u.test(s.text) && !NAMES.has(s.text) && !(s.text in en));
		expect(words).toEqual([]);
	});
});
