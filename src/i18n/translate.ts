// t(): a message from the catalogue of the person's language, English where that catalogue lacks it,
// with its {placeholders} filled and, for {count} messages, the plural form the language needs.
// The language is module state: one per app, set once when the plugin loads.
import type { Message, MessageKey, PluralCategory, Translation, VarsArg } from "./catalogue";
import { CATALOGUES } from "./catalogues";
import { en } from "./en";
import { languageFromObsidian, localeFor, type Language } from "./languages";

interface Current {
	language: Language;
	/** The locale Intl formats in (see localeFor). */
	locale: string;
}

function make(language: Language, systemLocale?: string): Current {
	return { language, locale: localeFor(language, systemLocale) };
}

/** The system's locale where there is one (the app's window; Node in tests and scripts). */
function systemLocale(): string | undefined {
	return typeof navigator !== "undefined" && typeof navigator.language === "string" ? navigator.language : undefined;
}

let current: Current = make("en");

/**
 * Sets the language from Obsidian's code (getLanguage(): "en", "zh", "zh-TW", "ja"...); codes we
 * do not ship mean English. Obsidian asks for a restart when its language changes, so the plugin
 * calls this once, when it loads. `system` is the system's locale (tests pass one).
 */
export function setLanguage(obsidianCode: string | null | undefined, system: string | undefined = systemLocale()): Language {
	current = make(languageFromObsidian(obsidianCode), system);
	return current.language;
}

export function currentLanguage(): Language {
	return current.language;
}

/** The locale numbers and dates are written in, for Intl. */
export function currentLocale(): string {
	return current.locale;
}

const catalogueOf = (language: Language): Translation => CATALOGUES[language];

/** The language's own message, or English when its catalogue lacks the key (the key itself if English does: only a cast can ask for one). */
function messageFor(key: MessageKey): Message {
	const own = catalogueOf(current.language)[key];
	return own ?? (en as Partial<Record<MessageKey, Message>>)[key] ?? key;
}

const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function cached<T>(cache: Map<string, T>, locale: string, make: (locale: string) => T): T {
	let value = cache.get(locale);
	if (value === undefined) cache.set(locale, (value = make(locale)));
	return value;
}

/**
 * A message as text in `locale`: for plural forms, the one `vars.count` needs there (Russian: 1
 * "one", 3 "few", 5 "many"), `other` when the catalogue lacks that form; then {name} filled with
 * vars.name, numbers in the locale's digits and grouping. An unknown {x} stays as written.
 */
export function renderMessage(message: Message, vars: Record<string, string | number> | undefined, locale: string): string {
	let text: string;
	if (typeof message === "string") text = message;
	else {
		const count = vars?.count;
		const category: PluralCategory = typeof count === "number" ? cached(pluralRules, locale, (l) => new Intl.PluralRules(l)).select(count) : "other";
		text = message[category] ?? message.other;
	}
	if (!vars) return text;
	return text.replace(/\{([A-Za-z][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
		const value = vars[name];
		if (value === undefined) return whole;
		return typeof value === "number" ? cached(numberFormats, locale, (l) => new Intl.NumberFormat(l)).format(value) : value;
	});
}

/** The message `key` in the person's language, its placeholders filled (the type requires every one). */
export function t<K extends MessageKey>(key: K, ...args: VarsArg<K>): string {
	return renderMessage(messageFor(key), args[0], current.locale);
}
