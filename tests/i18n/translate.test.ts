// t(), the language Obsidian reports mapped onto the shipped set, plural forms and fallbacks.
import { afterEach, describe, expect, it } from "vitest";
import { currentLanguage, currentLocale, languageFromObsidian, localeFor, setLanguage, t } from "../../src/i18n";
import { CATALOGUES } from "../../src/i18n/catalogues";
import { renderMessage } from "../../src/i18n/translate";
import type { Translation } from "../../src/i18n/catalogue";

afterEach(() => setLanguage("en", "en-US"));

describe("the language Obsidian reports", () => {
	it.each([
		["en", "en"],
		["zh", "zh-CN"],
		["zh-CN", "zh-CN"],
		["zh_cn", "zh-CN"],
		["zh-Hans", "zh-CN"],
		["zh-TW", "zh-TW"],
		["zh-HK", "zh-TW"],
		["zh-Hant", "zh-TW"],
		["ja", "ja"],
		["ko", "ko"],
		["es", "es"],
		["fr", "fr"],
		["de", "de"],
		["ru", "ru"],
		["pt-BR", "pt-BR"],
		["pt", "pt-BR"],
		["it", "en"],
		["uk", "en"],
		["", "en"],
		[undefined, "en"],
	])("%j is shown in %s", (code, language) => {
		expect(languageFromObsidian(code)).toBe(language);
	});

	it("formats in the system's locale when it speaks the same language, else in the language's", () => {
		expect(localeFor("en", "en-GB")).toBe("en-GB");
		expect(localeFor("es", "es-MX")).toBe("es-MX");
		expect(localeFor("en", "de-DE")).toBe("en");
		expect(localeFor("ja", "en-US")).toBe("ja");
		expect(localeFor("zh-CN", "zh-TW")).toBe("zh-CN");
		expect(localeFor("de", "not a locale!")).toBe("de");
		expect(localeFor("fr")).toBe("fr");
	});

	it("setLanguage takes Obsidian's code and sets the locale with it", () => {
		expect(setLanguage("zh", "en-US")).toBe("zh-CN");
		expect(currentLanguage()).toBe("zh-CN");
		expect(currentLocale()).toBe("zh-CN");
		setLanguage("en", "en-GB");
		expect(currentLocale()).toBe("en-GB");
	});
});

describe("t()", () => {
	it("fills placeholders, with numbers in the locale's grouping", () => {
		expect(t("plugin.legacyKeyKeptAs", { name: "my-key" })).toBe("Your old API key was kept in secret storage as “my-key”; the secret you chose stays in use.");
		expect(renderMessage("{count} of {total} tokens", { count: 1234, total: 8192 }, "de")).toBe("1.234 of 8.192 tokens");
		expect(renderMessage("Hello {name}, {missing}", { name: "Ada" }, "en")).toBe("Hello Ada, {missing}");
	});

	it("picks the plural form the language needs: Russian one, few and many", () => {
		const files = { one: "{count} файл", few: "{count} файла", many: "{count} файлов", other: "{count} файла" };
		expect([1, 3, 5, 21, 1.5].map((count) => renderMessage(files, { count }, "ru"))).toEqual(["1 файл", "3 файла", "5 файлов", "21 файл", "1,5 файла"]);
		expect([1, 2].map((count) => renderMessage({ one: "{count} chat", other: "{count} chats" }, { count }, "en"))).toEqual(["1 chat", "2 chats"]);
		// A language without a form the rules name falls back to `other`.
		expect(renderMessage({ other: "{count} 件" }, { count: 1 }, "ja")).toBe("1 件");
	});

	it("falls back to English for a key the language's catalogue lacks, and uses the language's own text where it has one", () => {
		const saved = CATALOGUES.ja;
		const partial: Translation = { "plugin.settingsUnreadable": "設定ファイルを読み込めませんでした。既定値を使用しています。" };
		CATALOGUES.ja = partial;
		try {
			setLanguage("ja", "en-US");
			expect(t("plugin.settingsUnreadable")).toBe("設定ファイルを読み込めませんでした。既定値を使用しています。");
			expect(t("plugin.notice", { text: "x" })).toBe("Discover: x");
		} finally {
			CATALOGUES.ja = saved;
		}
	});

	it("is typed: an unknown key, a missing variable or a stray one does not compile", () => {
		// @ts-expect-error: no such key (at run time, only a cast reaches here: the key shows, nothing throws)
		expect(t("nope")).toBe("nope");
		// @ts-expect-error: {name} is required
		t("plugin.legacyKeyKeptAs");
		// @ts-expect-error: {name}, not {nome}
		t("plugin.legacyKeyKeptAs", { nome: "x" });
		// @ts-expect-error: this message has no placeholders
		t("plugin.settingsUnreadable", { name: "x" });
		expect(t("plugin.settingsUnreadable")).toBe("The settings file could not be read; the defaults are in use.");
	});
});
