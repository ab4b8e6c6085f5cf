import { describe, expect, it } from "vitest";
import { foldWord, PREFIX_MARK, terms } from "../../src/context/terms";

/** The whole-word terms (without the prefix terms of light stemming, tested on their own below). */
const words = (text: string): string[] => terms(text).filter((t) => !t.endsWith(PREFIX_MARK));

describe("terms", () => {
	it("lower-cases words and folds Latin accents and ß", () => {
		expect(words("Café RÉSUMÉ Straße Übergröße")).toEqual(["cafe", "resume", "strasse", "ubergrosse"]);
	});

	it("folds ё to е but keeps й a letter of its own", () => {
		expect(words("Ёлка йогурт Йошкар")).toEqual(["елка", "йогурт", "йошкар"]);
		expect(foldWord("ЙОД")).toBe("йод");
	});

	it("keeps a code identifier whole and adds its camelCase, snake_case and kebab-case parts", () => {
		expect(words("parseHTTPResponse max_tokens data-view-id")).toEqual([
			"parsehttpresponse", "parse", "http", "response",
			"max_tokens", "max", "tokens",
			"data-view-id", "data", "view", "id",
		]);
	});

	it("cuts Chinese, Japanese and Korean runs into character bigrams, a lone character into itself", () => {
		expect(words("東京タワー")).toEqual(["東京", "京タ", "タワ", "ワー"]);
		expect(words("한국어")).toEqual(["한국", "국어"]);
		expect(words("年")).toEqual(["年"]);
		expect(words("Obsidianのプラグイン")).toEqual(["obsidian", "のプ", "プラ", "ラグ", "グイ", "イン"]);
	});

	it("keeps numbers and drops stop words of English, German and Russian", () => {
		expect(words("The answer is 42 and the year 2024")).toEqual(["answer", "42", "year", "2024"]);
		expect(words("der Hund und die Katze")).toEqual(["hund", "katze"]);
		expect(words("и он был в доме")).toEqual(["доме"]);
	});

	it("finds the same terms in a query and a text that differ only in case and accents", () => {
		expect(words("RESUME of the Uber strasse")).toEqual(words("résumé of the über Straße"));
	});

	it("gives a word of five letters or more its four-letter prefix too, so inflected forms meet", () => {
		expect(terms("матка")).toEqual(["матка", "матк~"]);
		expect(terms("матки").filter((t) => terms("матка").includes(t))).toEqual(["матк~"]);
		expect(terms("Sicherungsstände")).toContain("sich~");
		expect(terms("Sicherung")).toContain("sich~");
		// Short words, numbers and codes give none.
		expect(terms("cat 12345 abc123x")).toEqual(["cat", "12345", "abc123x"]);
	});
});
