import { describe, expect, it } from "vitest";
import { foldWord, terms } from "../../src/context/terms";

describe("terms", () => {
	it("lower-cases words and folds Latin accents and ß", () => {
		expect(terms("Café RÉSUMÉ Straße Übergröße")).toEqual(["cafe", "resume", "strasse", "ubergrosse"]);
	});

	it("folds ё to е but keeps й a letter of its own", () => {
		expect(terms("Ёлка йогурт Йошкар")).toEqual(["елка", "йогурт", "йошкар"]);
		expect(foldWord("ЙОД")).toBe("йод");
	});

	it("keeps a code identifier whole and adds its camelCase, snake_case and kebab-case parts", () => {
		expect(terms("parseHTTPResponse max_tokens data-view-id")).toEqual([
			"parsehttpresponse", "parse", "http", "response",
			"max_tokens", "max", "tokens",
			"data-view-id", "data", "view", "id",
		]);
	});

	it("cuts Chinese, Japanese and Korean runs into character bigrams, a lone character into itself", () => {
		expect(terms("東京タワー")).toEqual(["東京", "京タ", "タワ", "ワー"]);
		expect(terms("한국어")).toEqual(["한국", "국어"]);
		expect(terms("年")).toEqual(["年"]);
		expect(terms("Obsidianのプラグイン")).toEqual(["obsidian", "のプ", "プラ", "ラグ", "グイ", "イン"]);
	});

	it("keeps numbers and drops stop words of English, German and Russian", () => {
		expect(terms("The answer is 42 and the year 2024")).toEqual(["answer", "42", "year", "2024"]);
		expect(terms("der Hund und die Katze")).toEqual(["hund", "katze"]);
		expect(terms("и он был в доме")).toEqual(["доме"]);
	});

	it("finds the same terms in a query and a text that differ only in case and accents", () => {
		expect(terms("RESUME of the Uber strasse")).toEqual(terms("résumé of the über Straße"));
	});
});
