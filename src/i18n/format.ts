// Numbers, token counts, lists, dates and times in the person's locale (Intl), the one setLanguage
// chose unless a caller names another.
import { currentLocale } from "./translate";

/** 1234.5 → "1,234.5" (en), "1.234,5" (de), "1 234,5" (fr). */
export function formatNumber(n: number, locale: string = currentLocale()): string {
	return new Intl.NumberFormat(locale).format(n);
}

/**
 * A token count, short: 950 → "950", 7700 → "7.7K" (en), "7700" (ja), "7,7 тыс." (ru); 130000 →
 * "130K", "13万" (ja).
 */
export function formatTokenCount(tokens: number, locale: string = currentLocale()): string {
	const n = Math.max(0, Math.round(tokens));
	// One decimal below 100,000 is readable; above it the decimal is noise.
	return new Intl.NumberFormat(locale, { notation: "compact", maximumFractionDigits: n < 100_000 ? 1 : 0 }).format(n);
}

/** A whole percentage: 62 → "62%" (en), "62 %" (fr, de). */
export function formatPercent(percent: number, locale: string = currentLocale()): string {
	return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 }).format(percent / 100);
}

/** ["a", "b", "c"] → "a, b, and c" (en), "a、b、c" (ja). */
export function formatList(items: readonly string[], locale: string = currentLocale()): string {
	return new Intl.ListFormat(locale, { style: "long", type: "conjunction" }).format(items);
}

/**
 * When a message or chat was written: today the time alone ("7:51 AM" in the US, "07:51" in
 * Germany), earlier the date with it. The locale decides the clock (12 or 24 hours) and the order
 * of the parts. An unreadable date is "".
 */
export function formatWhen(iso: string, now: Date = new Date(), locale: string = currentLocale()): string {
	const date = new Date(iso);
	if (Number.isNaN(date.getTime())) return "";
	const today = date.toDateString() === now.toDateString();
	return new Intl.DateTimeFormat(locale, today ? { timeStyle: "short" } : { dateStyle: "medium", timeStyle: "short" }).format(date);
}
