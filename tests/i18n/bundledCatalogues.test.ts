// The catalogues as main.js holds them (esbuild.config.mjs, lazyCatalogues): the same messages as the
// sources in every language, and a language's JSON parsed only when something looks in it, once.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import esbuild from "esbuild";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CATALOGUES } from "../../src/i18n/catalogues";
import { LANGUAGES } from "../../src/i18n/languages";
import type * as Translate from "../../src/i18n/translate";
import { ROOT } from "../lint/sourceGraph";

// eslint-disable-next-line no-unsanitized/method -- a fixed file of this repository, not input
const config = (await import(pathToFileURL(join(ROOT, "esbuild.config.mjs")).href)) as { buildOptions: (prod: boolean) => esbuild.BuildOptions };

/** `entry` bundled with main.js's own plugins, as a module's source. */
async function bundle(entry: string): Promise<string> {
	const result = await esbuild.build({ entryPoints: [join(ROOT, entry)], bundle: true, format: "esm", platform: "neutral", write: false, logLevel: "silent", plugins: config.buildOptions(true).plugins });
	return result.outputFiles[0]?.text ?? "";
}

/** A bundle run as a module of its own. */
async function run<T>(code: string): Promise<T> {
	// eslint-disable-next-line no-unsanitized/method -- the repository's own source, just built
	return (await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`)) as T;
}

const bundled = async <T>(entry: string): Promise<T> => run<T>(await bundle(entry));

afterEach(() => {
	vi.restoreAllMocks();
});

describe("the catalogues in main.js", () => {
	it("hold every language with the same messages as the sources", async () => {
		const built = (await bundled<{ CATALOGUES: typeof CATALOGUES }>("src/i18n/catalogues.ts")).CATALOGUES;
		expect(Object.keys(built)).toEqual(Object.keys(CATALOGUES));
		expect(Object.keys(built).sort()).toEqual([...LANGUAGES].sort());
		for (const language of LANGUAGES) expect({ language, messages: built[language] }).toEqual({ language, messages: CATALOGUES[language] });
	});

	it("parse a language on its first lookup, not at load, and only once", async () => {
		// A comment makes this module's URL differ from the first test's, so it runs afresh.
		const code = `${await bundle("src/i18n/catalogues.ts")}\n// parse test`;
		const parse = vi.spyOn(JSON, "parse");
		const { CATALOGUES: built } = await run<{ CATALOGUES: typeof CATALOGUES }>(code);
		expect(parse).not.toHaveBeenCalled();
		const german = built.de;
		expect(parse).toHaveBeenCalledTimes(1);
		expect(built.de).toBe(german);
		expect(built.en).toBe(built.en);
		expect(parse).toHaveBeenCalledTimes(1);
	});

	it("translate as the sources do", async () => {
		const built = await bundled<typeof Translate>("src/i18n/translate.ts");
		const source = await import("../../src/i18n/translate");
		const texts = (tr: typeof Translate): string[] => [tr.t("panel.newChat"), tr.t("panel.selection", { count: 3 }), tr.t("panel.selection", { count: 1 })];
		try {
			for (const language of ["de", "ru", "ja", "zh-TW", "en"]) {
				built.setLanguage(language, "en-US");
				source.setLanguage(language, "en-US");
				expect({ language, texts: texts(built) }).toEqual({ language, texts: texts(source) });
			}
			expect(texts(built)[0]).toBe("New chat");
		} finally {
			source.setLanguage("en", "en-US");
		}
	});
});
