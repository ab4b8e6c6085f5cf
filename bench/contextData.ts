// Deterministic texts for the context benchmarks: filler paragraphs per language, long notes with
// planted answer passages (bench/retrieval.ts), and a synthetic vault (bench/context.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { seededRandom } from "../tests/support/random";

export type Lang = "en" | "de" | "ru" | "zh" | "ja";
export const LANGS: readonly Lang[] = ["en", "de", "ru", "zh", "ja"];

export interface Needle {
	lang: Lang;
	question: string;
	answer: string;
	passage: string;
}

const DATA = join(import.meta.dirname, "data");

export function loadNeedles(): Needle[] {
	return JSON.parse(readFileSync(join(DATA, "retrieval", "needles.json"), "utf8")) as Needle[];
}

/** Each language's filler: permissively licensed documentation, copied into bench/data/retrieval/ (its README names sources and licences). */
const FILLER_FILES: Record<Lang, string[]> = {
	en: ["filler-en-iobroker-javascript-blockly.md"],
	de: ["filler-de-iobroker-javascript-blockly.md"],
	ru: ["filler-ru-iobroker-javascript-blockly.md"],
	zh: ["filler-zh-vconsole-changelog.md", "filler-zh-vconsole-readme.md", "filler-zh-pinyin-pro-readme.md"],
	ja: ["filler-ja-textlint-ja-technical-writing-readme.md", "filler-ja-textlint-jtf-style-readme.md"],
};

/** Paragraphs (blank-line separated, at least 40 characters) of one language's filler texts. */
export function fillerParagraphs(lang: Lang): string[] {
	const texts = FILLER_FILES[lang].map((f) => readFileSync(join(DATA, "retrieval", f), "utf8"));
	return texts
		.flatMap((t) => t.split(/\n\s*\n/))
		.map((p) => p.trim().replace(/^#+\s.*$/gm, "").trim())
		.filter((p) => p.length >= 40);
}

/** Paragraphs drawn at random (seeded) from `pool` until `chars` characters, under "## Part n" headings. */
export function longNote(pool: readonly string[], chars: number, seed: number, title: string): string[] {
	const rnd = seededRandom(seed);
	const out: string[] = [`# ${title}`];
	let size = 0;
	let part = 0;
	while (size < chars) {
		if (out.length % 8 === 1) out.push(`## Part ${++part}`);
		const p = pool[Math.floor(rnd() * pool.length)] ?? "";
		out.push(p);
		size += p.length + 2;
	}
	return out;
}

/** Invented words, so a synthetic vault has a vocabulary the size of a real one. */
const SYLLABLES = ["ka", "lo", "min", "ter", "va", "sho", "rin", "de", "pa", "qu", "zel", "mo", "ri", "tan", "bel", "fo", "gri", "nu", "sta", "ve"];
function inventedWord(rnd: () => number): string {
	const n = 2 + Math.floor(rnd() * 3);
	let w = "";
	for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rnd() * SYLLABLES.length)] ?? "";
	return w;
}

/** A synthetic vault note of about `chars` characters: mixed-language filler and invented words. */
export function syntheticNote(i: number, chars: number, pools: readonly (readonly string[])[]): string {
	const rnd = seededRandom(1000 + i);
	const pool = pools[i % pools.length] ?? [];
	const parts: string[] = [`# Note ${i}`];
	let size = 0;
	while (size < chars) {
		if (parts.length % 5 === 0) parts.push(`## Section ${parts.length} ${inventedWord(rnd)}`);
		let p = pool[Math.floor(rnd() * pool.length)] ?? "";
		if (p.length > chars / 2) p = p.slice(0, Math.floor(chars / 2));
		const words = Array.from({ length: 6 }, () => inventedWord(rnd)).join(" ");
		parts.push(`${p} ${words}`);
		size += p.length + words.length + 3;
	}
	return parts.join("\n\n");
}
