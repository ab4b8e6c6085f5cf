// English: the source of truth. Every key the UI uses is here; other languages are typed against it
// (catalogue.ts). Sentence case (tests/i18n, and the reviewers' obsidianmd locale rule). A message
// that depends on {count} gives plural forms; a message's {placeholders} are what t() requires.
export const en = {
	// Notices from loading the plugin (main.ts).
	"plugin.notice": "Discover: {text}",
	"plugin.settingsUnreadable": "The settings file could not be read; the defaults are in use.",
	"plugin.settingsReset": "Some settings were invalid and were reset to their defaults: {fields}.",
	"plugin.legacyKeyKeptAs": "Your old API key was kept in secret storage as “{name}”; the secret you chose stays in use.",
	"plugin.legacyKeyNotMoved": "The API key could not be moved into secret storage yet; it stays in the plugin's data file and is moved the next time settings are saved.",
} as const satisfies Record<string, string | { one?: string; other: string }>;
