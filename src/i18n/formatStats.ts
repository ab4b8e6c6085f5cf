// What an answer cost, in the person's locale: seconds, token rates and money (Intl).
import { currentLocale } from "./translate";

/**
 * A short duration: under a second in milliseconds (42 → "42 ms"), else in seconds with one decimal
 * under 10 s (1420 → "1.4 sec" in en, "1,4 Sek." in de).
 */
export function formatDuration(ms: number, locale: string = currentLocale()): string {
	const value = Math.max(0, ms);
	if (value < 1000) return new Intl.NumberFormat(locale, { style: "unit", unit: "millisecond", unitDisplay: "short", maximumFractionDigits: 0 }).format(value);
	const seconds = value / 1000;
	return new Intl.NumberFormat(locale, { style: "unit", unit: "second", unitDisplay: "short", maximumFractionDigits: seconds < 10 ? 1 : 0 }).format(seconds);
}

/** A rate with one decimal below 100: 42.25 → "42.3", 1234.5 → "1,235" (en). */
export function formatRate(perSecond: number, locale: string = currentLocale()): string {
	return new Intl.NumberFormat(locale, { maximumFractionDigits: perSecond < 100 ? 1 : 0 }).format(Math.max(0, perSecond));
}

/**
 * An amount of money in `currency` (ISO 4217). Answers cost fractions of a cent, so small amounts
 * keep their significant digits: 0.0042 → "$0.0042", 0.42 → "$0.42", 12.5 → "$12.50" (en).
 */
export function formatMoney(amount: number, currency: string, locale: string = currentLocale()): string {
	const value = Math.max(0, amount);
	const digits: Intl.NumberFormatOptions = value > 0 && value < 0.01 ? { maximumSignificantDigits: 2 } : value < 1 ? { minimumFractionDigits: 2, maximumFractionDigits: 4 } : {};
	try {
		return new Intl.NumberFormat(locale, { style: "currency", currency, ...digits }).format(value);
	} catch {
		// A currency code Intl does not know (settings validate it; this is the last guard): the number and the code.
		return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 4 }).format(value)} ${currency}`;
	}
}
