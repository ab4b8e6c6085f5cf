// The languages Discover ships, and how Obsidian's language code maps onto them. Pure: the UI reads
// Obsidian's getLanguage() and passes the code in, so this folder never imports 'obsidian'.

/** Shipped languages, as BCP 47 tags (also the locale Intl formats numbers and dates in). */
export const LANGUAGES = ["en", "zh-CN", "zh-TW", "ja", "ko", "es", "fr", "de", "ru", "pt-BR"] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language's own name, for the README and for people who pick one. */
export const LANGUAGE_NAMES: Record<Language, string> = {
	en: "English",
	"zh-CN": "简体中文",
	"zh-TW": "繁體中文",
	ja: "日本語",
	ko: "한국어",
	es: "Español",
	fr: "Français",
	de: "Deutsch",
	ru: "Русский",
	"pt-BR": "Português (Brasil)",
};

/**
 * Obsidian's code (its translations repository: "en", "zh" for Simplified Chinese, "zh-TW",
 * "pt-BR", "pt", "ja"...) as one of ours; anything we do not ship is English. Case, "_" and
 * script or region subtags are tolerated, since other apps spell these codes differently.
 */
export function languageFromObsidian(code: string | null | undefined): Language {
	const parts = (code ?? "").trim().replace(/_/g, "-").toLowerCase().split("-");
	const [lang = "", ...rest] = parts;
	if (lang === "zh") {
		// Traditional Chinese is written in Taiwan, Hong Kong and Macao, or named by its script.
		return rest.some((p) => p === "tw" || p === "hk" || p === "mo" || p === "hant") ? "zh-TW" : "zh-CN";
	}
	// European Portuguese readers are better served by Brazilian Portuguese than by English.
	if (lang === "pt") return "pt-BR";
	const plain = LANGUAGES.find((l) => l === lang);
	return plain ?? "en";
}

/**
 * The locale numbers and dates are written in: the system's own when it speaks the same language
 * (an English UI on a British system keeps a 24-hour clock, Spanish on a Mexican one its
 * conventions), else the language's. Chinese and Portuguese keep ours: their variants differ in
 * script or spelling, not only in conventions.
 */
export function localeFor(language: Language, systemLocale?: string): string {
	if (!systemLocale || language === "zh-CN" || language === "zh-TW" || language === "pt-BR") return language;
	let system: string;
	try {
		system = Intl.getCanonicalLocales(systemLocale)[0] ?? "";
	} catch {
		return language;
	}
	return system.split("-")[0]?.toLowerCase() === language ? system : language;
}
