// Every catalogue against English: no unknown keys, the same placeholders, the plural forms its
// language needs, no copied English (names apart); English itself in sentence case.
import { describe, expect, it } from "vitest";
import { en } from "../../src/i18n/en";
import { CATALOGUES } from "../../src/i18n/catalogues";
import { LANGUAGES } from "../../src/i18n/languages";
import { copiesOfEnglish, MAX_SHARE_SAME_AS_ENGLISH, missingKeys, placeholderProblems, pluralProblems, sentenceCaseProblems, unknownKeys, type AnyCatalogue } from "./catalogueChecks";

const english: AnyCatalogue = en;
const others = LANGUAGES.filter((l) => l !== "en").map((l) => [l, CATALOGUES[l] as AnyCatalogue] as const);

describe("the checks (so they can fail)", () => {
	const source: AnyCatalogue = { "a.name": "Hello {name}", "a.count": { one: "{count} chat", other: "{count} chats" }, "a.brand": "Ollama", "a.save": "Save" };

	it("catch a missing or unknown key, a changed placeholder, a missing plural form and copied English", () => {
		const bad: AnyCatalogue = { "a.name": "Привет, {nom}", "a.count": { one: "{count} чат", other: "{count} чата" }, "a.brand": "Ollama", "a.save": "Save", "a.extra": "?" };
		expect(missingKeys(source, { "a.name": "x" })).toEqual(["a.count", "a.brand", "a.save"]);
		expect(unknownKeys(source, bad)).toEqual(["a.extra"]);
		expect(placeholderProblems(source, bad)).toEqual(["a.name: {nom} instead of {name}"]);
		expect(pluralProblems(source, bad, "ru")).toEqual(["a.count: lacks few, many"]);
		expect(pluralProblems(source, { "a.count": "{count} chats" }, "ja")).toEqual(["a.count: English has plural forms, this is text"]);
		expect(copiesOfEnglish(source, bad)).toEqual(["a.save"]);
	});

	it("catch Title Case and a lowercase start in English, and let brands, keys and acronyms keep their capitals", () => {
		expect(sentenceCaseProblems({ a: "Open Chat", b: "open chat" })).toHaveLength(2);
		expect(sentenceCaseProblems({ a: "Press Enter to send", b: "Check the API key and the base URL", c: "Start LM Studio's server", d: "{count} chats", e: "Kept in Obsidian's secret storage. Ollama needs none." })).toEqual([]);
	});
});

describe("the shipped catalogues", () => {
	it("English has keys, all in sentence case", () => {
		expect(Object.keys(en).length).toBeGreaterThan(0);
		expect(sentenceCaseProblems(english)).toEqual([]);
	});

	it.each(others)("%s: only English's keys, with the same placeholders and the plural forms the language needs", (language, catalogue) => {
		expect(unknownKeys(english, catalogue)).toEqual([]);
		expect(placeholderProblems(english, catalogue)).toEqual([]);
		expect(pluralProblems(english, catalogue, language)).toEqual([]);
	});

	it.each(others)("%s: is not a copy of English (names apart, a few percent at most)", (_language, catalogue) => {
		const copies = copiesOfEnglish(english, catalogue);
		expect(copies.length, `copied from English: ${copies.join(", ")}`).toBeLessThanOrEqual(Math.floor(Object.keys(en).length * MAX_SHARE_SAME_AS_ENGLISH));
	});
});

describe("one word for one thing", () => {
	it("Japanese says フォルダー throughout, never also フォルダ", () => {
		const texts = Object.values(CATALOGUES.ja as AnyCatalogue).flatMap((v) => (typeof v === "string" ? [v] : v === undefined ? [] : Object.values(v)));
		expect(texts.filter((s) => /フォルダ(?!ー)/.test(s))).toEqual([]);
		expect(texts.some((s) => s.includes("フォルダー"))).toBe(true);
	});
});
