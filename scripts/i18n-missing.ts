// Prints the keys each language's catalogue lacks, with the English text to translate:
//   npx tsx scripts/i18n-missing.ts            every language, counts and keys
//   npx tsx scripts/i18n-missing.ts ja de      those languages only
// Exits 1 while any key is missing (tests/i18n/complete.test.ts is the same gate).
import { CATALOGUES } from "../src/i18n/catalogues";
import { en } from "../src/i18n/en";
import { LANGUAGES, type Language } from "../src/i18n/languages";

const asked = process.argv.slice(2);
const unknown = asked.filter((a) => !(LANGUAGES as readonly string[]).includes(a));
if (unknown.length) {
	console.error(`Unknown language: ${unknown.join(", ")}. Shipped: ${LANGUAGES.join(", ")}.`);
	process.exit(2);
}
const languages = (asked.length ? asked : LANGUAGES.filter((l) => l !== "en")) as Language[];
const english = en as Record<string, unknown>;
let missingAll = 0;
for (const language of languages) {
	const catalogue = CATALOGUES[language] as Record<string, unknown>;
	const missing = Object.keys(english).filter((k) => catalogue[k] === undefined);
	missingAll += missing.length;
	console.log(`${language}: ${missing.length} of ${Object.keys(english).length} keys missing`);
	for (const key of missing) console.log(`  ${JSON.stringify(key)}: ${JSON.stringify(english[key])},`);
}
process.exit(missingAll > 0 ? 1 : 0);
