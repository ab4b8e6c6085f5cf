// The UI's language: one typed catalogue (en.ts and its translations), t() to read it, and Intl
// formatters in the same locale. Never imports 'obsidian' nor the engine: main.ts passes Obsidian's
// getLanguage() to setLanguage, and the engine never imports this folder (tests/lint/layering.ts).
export type { Catalogue, Message, MessageKey, PlainKey, PluralCategory, PluralForms, Translation } from "./catalogue";
export { LANGUAGE_NAMES, LANGUAGES, languageFromObsidian, localeFor, type Language } from "./languages";
export { currentLanguage, currentLocale, setLanguage, t } from "./translate";
export { formatList, formatNumber, formatPercent, formatTokenCount, formatWhen } from "./format";
export { formatDuration, formatMoney, formatRate } from "./formatStats";
