// Numbers, token counts, lists and times in the person's locale.
import { afterEach, describe, expect, it } from "vitest";
import { formatList, formatNumber, formatPercent, formatTokenCount, formatWhen, setLanguage } from "../../src/i18n";

afterEach(() => setLanguage("en", "en-US"));

/** Intl separates some units with a no-break space: compare with plain spaces. */
const plain = (s: string): string => s.replace(/[\u00a0\u202f]/g, " ");

describe("Intl formatters", () => {
	it("write token counts short, as the locale abbreviates them", () => {
		const counts = [950, 3140, 7700, 12_500, 130_000];
		expect(counts.map((n) => formatTokenCount(n, "en"))).toEqual(["950", "3.1K", "7.7K", "12.5K", "130K"]);
		expect(counts.map((n) => formatTokenCount(n, "ja"))).toEqual(["950", "3140", "7700", "1.3万", "13万"]);
		expect(counts.map((n) => formatTokenCount(n, "zh-CN"))).toEqual(["950", "3140", "7700", "1.3万", "13万"]);
		expect(plain(formatTokenCount(7700, "ru"))).toBe("7,7 тыс.");
		expect(formatTokenCount(-5, "en")).toBe("0");
	});

	it("use the language setLanguage chose when no locale is named", () => {
		setLanguage("zh", "en-US");
		expect(formatTokenCount(130_000)).toBe("13万");
		expect(formatList(["a", "b", "c"])).toBe("a、b和c");
		setLanguage("de", "de-DE");
		expect(formatNumber(1234.5)).toBe("1.234,5");
		expect(plain(formatPercent(62))).toBe("62 %");
	});

	it("write lists and times in the locale", () => {
		expect(formatList(["Context size", "Model"], "en")).toBe("Context size and Model");
		expect(formatList(["a", "b", "c"], "ja")).toBe("a、b、c");
		const now = new Date(2024, 0, 2, 12, 0);
		expect(plain(formatWhen(new Date(2024, 0, 2, 7, 51).toISOString(), now, "en-US"))).toBe("7:51 AM");
		expect(formatWhen(new Date(2024, 0, 2, 7, 51).toISOString(), now, "de")).toBe("07:51");
		expect(formatWhen(new Date(2024, 0, 1, 7, 51).toISOString(), now, "ja")).toBe("2024/01/01 7:51");
		expect(formatWhen("not a date", now, "en")).toBe("");
	});
});
