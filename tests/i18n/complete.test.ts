// The gate for translations: every key English has, every shipped language has too. Until a
// language is complete its missing keys show in English; `npx tsx scripts/i18n-missing.ts` lists them.
import { describe, expect, it } from "vitest";
import { CATALOGUES } from "../../src/i18n/catalogues";
import { en } from "../../src/i18n/en";
import { LANGUAGES } from "../../src/i18n/languages";
import { missingKeys } from "./catalogueChecks";

describe("every shipped language", () => {
	it.each(LANGUAGES.filter((l) => l !== "en"))("%s has every key English has", (language) => {
		const missing = missingKeys(en, CATALOGUES[language]);
		expect(missing, `${language} lacks ${missing.length} of ${Object.keys(en).length} keys`).toEqual([]);
	});
});
