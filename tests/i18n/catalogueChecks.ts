// The checks every catalogue must pass, as pure functions of the catalogues, so tests can show each
// one failing on a bad catalogue before trusting it on the real ones.
import { evaluateSentenceCase } from "eslint-plugin-obsidianmd/dist/lib/rules/ui/sentenceCaseUtil.js";
import type { Message, PluralCategory } from "../../src/i18n/catalogue";

export type AnyCatalogue = Readonly<Partial<Record<string, Message>>>;

/** Texts a translation may keep as in English: names and protocol terms people see untranslated. */
export const SAME_IN_EVERY_LANGUAGE = new Set(["Ollama", "OpenAI", "Anthropic", "Discover", "API key", "Base URL", "URL", "OK", "Markdown", "JSON", "HTTP", "LM Studio", "Discover: {text}", "{name}", "{count}"]);

/** Beyond the names above, at most this share of a catalogue may equal English (a short word can be the same, e.g. "Model" / "Modell" is not, "Provider" can be). */
export const MAX_SHARE_SAME_AS_ENGLISH = 0.03;

/** Proper nouns, brands and key names that keep their capitals in English sentence case. */
export const BRANDS = ["Discover", "Obsidian", "Ollama", "OpenAI", "Anthropic", "LM Studio", "Markdown", "Templater", "DataviewJS", "Dataview", "Enter", "Shift", "Ctrl", "Cmd", "Esc", "Tab", "vLLM", "Retry-After", "I"];
/** Texts that name Obsidian's own "Settings" window as a place, and the quiet lowercase "stopped" mark asked for in the history. */
export const IGNORE = ["Settings →", "^stopped$"];
export const ACRONYMS = ["API", "URL", "URLs", "URI", "JSON", "JSONL", "ID", "OK", "MCP"];

const textsOf = (m: Message): string[] => (typeof m === "string" ? [m] : Object.values(m).filter((v): v is string => typeof v === "string"));

export function placeholders(m: Message): string[] {
	return [...new Set(textsOf(m).flatMap((text) => [...text.matchAll(/\{([^{}]*)\}/g)].map((x) => x[1] ?? "")))].sort();
}

/** Keys English has that `translation` lacks. */
export function missingKeys(english: AnyCatalogue, translation: AnyCatalogue): string[] {
	return Object.keys(english).filter((k) => translation[k] === undefined);
}

/** Keys a translation has that English does not (the type forbids them; a cast could still add one). */
export function unknownKeys(english: AnyCatalogue, translation: AnyCatalogue): string[] {
	return Object.keys(translation).filter((k) => english[k] === undefined);
}

/** "key: {a} vs {b}" for every translation whose placeholders differ from English's. */
export function placeholderProblems(english: AnyCatalogue, translation: AnyCatalogue): string[] {
	const out: string[] = [];
	for (const [key, message] of Object.entries(translation)) {
		const source = english[key];
		if (message === undefined || source === undefined) continue;
		const want = placeholders(source).join(" ");
		const got = placeholders(message).join(" ");
		if (want !== got) out.push(`${key}: {${got}} instead of {${want}}`);
	}
	return out;
}

/** Plural keys whose forms do not match English's shape, or lack a category `locale` needs (Russian: one, few, many, other). */
export function pluralProblems(english: AnyCatalogue, translation: AnyCatalogue, locale: string): string[] {
	const needed = new Intl.PluralRules(locale).resolvedOptions().pluralCategories as PluralCategory[];
	const out: string[] = [];
	for (const [key, message] of Object.entries(translation)) {
		const source = english[key];
		if (message === undefined || source === undefined) continue;
		if (typeof source === "string" || typeof message === "string") {
			if (typeof source !== typeof message) out.push(`${key}: ${typeof source === "string" ? "English is text, this has plural forms" : "English has plural forms, this is text"}`);
			continue;
		}
		const lacking = needed.filter((c) => message[c] === undefined);
		if (lacking.length) out.push(`${key}: lacks ${lacking.join(", ")}`);
	}
	return out;
}

/** Keys whose translation is the English text itself, names apart. */
export function copiesOfEnglish(english: AnyCatalogue, translation: AnyCatalogue): string[] {
	return Object.entries(translation)
		.filter(([key, message]) => {
			const source = english[key];
			if (message === undefined || source === undefined) return false;
			const same = JSON.stringify(message) === JSON.stringify(source);
			return same && !textsOf(source).every((text) => SAME_IN_EVERY_LANGUAGE.has(text));
		})
		.map(([key]) => key);
}

/** "key: suggestion" for English texts that are not sentence case (the reviewers' obsidianmd rule, with our brands). */
export function sentenceCaseProblems(english: AnyCatalogue): string[] {
	const out: string[] = [];
	for (const [key, message] of Object.entries(english)) {
		if (message === undefined) continue;
		for (const text of textsOf(message)) {
			const verdict = evaluateSentenceCase(text, { brands: BRANDS, acronyms: ACRONYMS, ignoreRegex: IGNORE });
			if (!verdict.ok) out.push(`${key}: "${text}" (sentence case: "${verdict.suggestion ?? ""}")`);
		}
	}
	return out;
}
