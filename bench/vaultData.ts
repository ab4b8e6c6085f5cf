// A deterministic synthetic vault of up to 100,000 notes (~4 KB a note, ~400 MB at full size) in six
// languages: English, German, Russian, Japanese (the token corpus, bench/data/tokens-dev.jsonl),
// Chinese (bench/data/retrieval's filler) and Korean (bench/data/vault/). Notes are generated one at
// a time from their number (`vaultNote(i)`), so a bench never holds the vault's text.
// Each note has a folder path, a title (two words of its language and a name of its own, like
// "Meeting notes Okalirin"), tags (common ones, and for a third of notes one of its own), headings,
// paragraphs of its language's sentences with words changed (so no two notes share a paragraph),
// links to other notes, sometimes a code block, and one word no other note has (its "rare word").
// One note in 20 is long (15–40 KB); 2% are pathological: one long base64 line, a huge Markdown
// table, or CJK without punctuation. bench/knownItems.ts builds the labelled queries from the same
// functions, so every query's right note is known.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { seededRandom } from "../tests/support/random";

export type VaultLang = "en" | "de" | "ru" | "ja" | "zh" | "ko";
export const VAULT_LANGS: readonly VaultLang[] = ["en", "de", "ru", "ja", "zh", "ko"];

const DATA = join(import.meta.dirname, "data");
const SPACED: Record<VaultLang, boolean> = { en: true, de: true, ru: true, ja: false, zh: false, ko: true };

export interface LangPool {
	lang: VaultLang;
	/** Sentences (or lines) of real text. */
	sentences: string[];
	/** Each sentence's words (spaced languages) or 6-character pieces (Chinese, Japanese). */
	pieces: string[][];
	/** Distinct words (spaced languages) or 2–4 character pieces (Chinese, Japanese), most frequent first. */
	words: string[];
	/** Tags shared by many notes. */
	tags: string[];
	/** Syllables that spell this language's invented names and rare words. */
	syllables: string[];
}

interface CorpusLine {
	category: string;
	text: string;
}

let pools: Map<VaultLang, LangPool> | undefined;
let codeSamples: string[] | undefined;

function corpus(): CorpusLine[] {
	return readFileSync(join(DATA, "tokens-dev.jsonl"), "utf8")
		.trim()
		.split("\n")
		.map((l) => JSON.parse(l) as CorpusLine);
}

function sourceTexts(lang: VaultLang, lines: readonly CorpusLine[]): string[] {
	const of = (c: string): string[] => lines.filter((l) => l.category === c).map((l) => l.text);
	switch (lang) {
		case "en":
			return [...of("prose-en"), ...of("markdown")];
		case "de":
			return of("prose-de");
		case "ru":
			return of("man-ru");
		case "ja":
			return of("prose-ja");
		case "zh":
			return ["filler-zh-vconsole-changelog.md", "filler-zh-vconsole-readme.md", "filler-zh-pinyin-pro-readme.md"].map((f) => readFileSync(join(DATA, "retrieval", f), "utf8"));
		case "ko":
			return [readFileSync(join(DATA, "vault", "ko-typescript-diagnostics.txt"), "utf8")];
	}
}

const LATIN_SYLLABLES = ["ka", "lo", "mi", "te", "va", "sho", "ri", "de", "pa", "qu", "ze", "mo", "tan", "bel", "fo", "gri", "nu", "sta", "ve", "dor"];
const SYLLABLES: Record<VaultLang, string[]> = {
	en: LATIN_SYLLABLES,
	de: LATIN_SYLLABLES.map((s) => s.replace("qu", "ku").replace("sho", "sch")),
	ru: ["ка", "ло", "ми", "те", "ва", "шо", "ри", "де", "па", "зу", "не", "мо", "тан", "бел", "фо", "гри", "ну", "ста", "ве", "дор"],
	ja: ["カ", "ロ", "ミ", "テ", "バ", "ショ", "リ", "デ", "パ", "ク", "ゼ", "モ", "タン", "ベル", "フォ", "グリ", "ヌ", "スタ", "ヴェ", "ドル"],
	zh: ["鹊", "璇", "琨", "翎", "瑶", "珩", "霁", "檀", "筠", "蘅", "棠", "琮", "芷", "瑜", "翊", "澜", "岚", "璟", "柘", "楠"],
	ko: ["가", "로", "미", "테", "바", "쇼", "리", "데", "파", "쿠", "제", "모", "탄", "벨", "포", "그리", "누", "스타", "베", "도르"],
};

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
const CJK_RUN = /[\u3040-\u30ff\u3400-\u9fff]{2,}/gu;

function poolOf(lang: VaultLang, lines: readonly CorpusLine[]): LangPool {
	const texts = sourceTexts(lang, lines);
	const sentences = texts
		.flatMap((t) => t.replace(/([.!?。！？])\s*/g, "$1\n").split(/\n+/))
		.map((s) => s.replace(/^[#>*\-\s|`]+/, "").trim())
		.filter((s) => s.length >= (SPACED[lang] ? 30 : 12) && s.length <= 400 && !/[<>{}=;]/.test(s));
	const counts = new Map<string, number>();
	for (const s of sentences) {
		if (SPACED[lang]) {
			for (const w of s.match(WORD) ?? []) if (w.length >= 3 && !/\d/.test(w)) counts.set(w.toLowerCase(), (counts.get(w.toLowerCase()) ?? 0) + 1);
		} else {
			for (const run of s.match(CJK_RUN) ?? []) for (let i = 0; i + 2 <= run.length; i += 2) {
				const piece = run.slice(i, i + 2 + (i % 3 === 0 ? 1 : 0));
				counts.set(piece, (counts.get(piece) ?? 0) + 1);
			}
		}
	}
	const words = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
	const tags = words.slice(20, 80).map((w) => w.replace(/['’-]/g, ""));
	const pieces = sentences.map((t) => (SPACED[lang] ? t.split(" ") : (t.match(/[\s\S]{1,6}/gu) ?? [])));
	return { lang, sentences, pieces, words, tags, syllables: SYLLABLES[lang] };
}

export function langPools(): Map<VaultLang, LangPool> {
	if (!pools) {
		const lines = corpus();
		pools = new Map(VAULT_LANGS.map((l) => [l, poolOf(l, lines)]));
		codeSamples = lines.filter((l) => l.category === "code").map((l) => l.text.slice(0, 1500));
	}
	return pools;
}

/** A name spelled from `syllables` by the digits of `n` in base 20, `digits` syllables long: distinct n, distinct names. */
export function spell(n: number, digits: number, syllables: readonly string[]): string {
	let out = "";
	for (let k = 0; k < digits; k++) {
		out += syllables[n % syllables.length] ?? "";
		n = Math.floor(n / syllables.length);
	}
	return out;
}

export interface VaultNote {
	id: string;
	name: string;
	text: string;
	mtime: number;
	lang: VaultLang;
	kind: "note" | "long" | "base64" | "table" | "cjk-run";
	/** The word no other note has. */
	rare: string;
	/** The title's invented name. */
	nameWord: string;
	/** Its own tag, if it has one (without "#"). */
	ownTag?: string;
	tags: string[];
	headings: string[];
	/** Body paragraphs (no headings), for queries that quote the note. */
	paragraphs: string[];
}

export const langOf = (i: number): VaultLang => VAULT_LANGS[i % VAULT_LANGS.length] as VaultLang;

/** Multipliers that scatter note numbers over the name space (odd, coprime with 20^k). */
const RARE_DIGITS = 6;
const NAME_DIGITS = 4;
const TAG_DIGITS = 5;
const scatter = (i: number, mult: number, digits: number): number => (i * mult + 12_345) % 20 ** digits;

function joinWords(lang: VaultLang, words: readonly string[]): string {
	return SPACED[lang] ? words.join(" ") : words.join("");
}

/** A sentence with about a third of its words changed to others of the language (CJK: pieces inserted). */
function variedSentence(pool: LangPool, rnd: () => number): string {
	const pieces = pool.pieces[Math.floor(rnd() * pool.pieces.length)] ?? [];
	const words = pool.words;
	let out = "";
	if (SPACED[pool.lang]) {
		for (const w of pieces) out += (out === "" ? "" : " ") + (rnd() < 0.33 ? (words[Math.floor(rnd() * words.length)] ?? "") : w);
		return out;
	}
	for (const piece of pieces) out += piece + (rnd() < 0.5 ? (words[Math.floor(rnd() * words.length)] ?? "") : "");
	return out;
}

function paragraph(pool: LangPool, rnd: () => number, chars: number): string {
	const parts: string[] = [];
	let n = 0;
	while (n < chars) {
		const s = variedSentence(pool, rnd);
		parts.push(s);
		n += s.length + 1;
	}
	return parts.join(SPACED[pool.lang] ? " " : "");
}

let cjkRun: string | undefined;
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function pathological(kind: VaultNote["kind"], rnd: () => number, pool: LangPool): string {
	const size = 20_000 + Math.floor(rnd() * 40_000);
	if (kind === "base64") {
		const chunk: string[] = [];
		for (let k = 0; k < 1024; k++) chunk.push(BASE64[Math.floor(rnd() * 64)] ?? "A");
		const block = chunk.join("");
		const parts: string[] = [];
		for (let k = 0; k < size; k += 1024) parts.push(block.slice(k % 512) + block.slice(0, k % 512));
		return `![clip](data:image/png;base64,${parts.join("")})`;
	}
	if (kind === "table") {
		const rows = ["| id | name | value | note |", "|---|---|---|---|"];
		let n = 0;
		for (let r = 0; n < size; r++) {
			const row = `| ${r} | ${pool.words[Math.floor(rnd() * 200)] ?? ""} | ${Math.floor(rnd() * 1e6)} | ${pool.words[Math.floor(rnd() * pool.words.length)] ?? ""} |`;
			rows.push(row);
			n += row.length + 1;
		}
		return rows.join("\n");
	}
	cjkRun ??= (langPools().get("zh") as LangPool).sentences.join("").replace(/[\p{P}\p{S}\s\w]/gu, "");
	const parts: string[] = [];
	for (let n = 0; n < size / 2; n += 2000) {
		const at = Math.floor(rnd() * (cjkRun.length - 2000));
		parts.push(cjkRun.slice(at, at + 2000));
	}
	return parts.join("");
}

/** Note number i of a vault of `count` notes. Same i, same note, every run. */
export function vaultNote(i: number, count: number): VaultNote {
	const rnd = seededRandom(i * 7919 + 17);
	const lang = langOf(i);
	const pool = langPools().get(lang) as LangPool;
	const pick = (list: readonly string[], top = list.length): string => list[Math.floor(rnd() * Math.min(top, list.length))] ?? "";
	// Decided by the note's number within its language, so every language has each kind.
	const k = Math.floor(i / VAULT_LANGS.length);
	const kind: VaultNote["kind"] = k % 50 === 49 ? ((["base64", "table", "cjk-run"] as const)[Math.floor(k / 50) % 3] ?? "base64") : k % 20 === 3 ? "long" : "note";
	const nameWord = spell(scatter(i, 7_001, NAME_DIGITS), NAME_DIGITS, pool.syllables);
	const rare = spell(scatter(i, 104_729, RARE_DIGITS), RARE_DIGITS, pool.syllables);
	const ownTag = k % 3 === 1 ? spell(scatter(i, 3_001, TAG_DIGITS), TAG_DIGITS, pool.syllables) : undefined;
	const area = Math.floor(rnd() * 12);
	const folder = `${lang}/${pool.words[40 + area] ?? "area"}/${pool.words[100 + Math.floor(rnd() * 30)] ?? "sub"}`;
	const name = joinWords(lang, [pick(pool.words, 1500), pick(pool.words, 1500), nameWord]);
	const tags = [pick(pool.tags), pick(pool.tags)].filter((t, k, a) => t !== "" && a.indexOf(t) === k);
	if (ownTag) tags.push(ownTag);
	const lines: string[] = [];
	if (rnd() < 0.5) lines.push("---", `tags: [${tags.join(", ")}]`, `created: 2024-0${1 + (i % 9)}-1${i % 10}`, "---", "");
	else lines.push(tags.map((t) => `#${t}`).join(" "), "");
	const headings: string[] = [];
	const paragraphs: string[] = [];
	const target = kind === "long" ? 10_000 + Math.floor(rnd() * 14_000) : 600 + Math.floor(rnd() ** 2 * 3_400);
	const rareAt = Math.floor(rnd() * 4);
	let size = 0;
	let p = 0;
	while (size < target || p <= rareAt) {
		if (p % 3 === 0) {
			const heading = joinWords(lang, [pick(pool.words), pick(pool.words), pick(pool.words)]);
			headings.push(heading);
			lines.push(`## ${heading}`, "");
		}
		let text = paragraph(pool, rnd, 300 + Math.floor(rnd() * 500));
		if (p === rareAt) {
			const cut = text.indexOf(SPACED[lang] ? " " : "", Math.floor(text.length / 2));
			text = `${text.slice(0, cut)}${SPACED[lang] ? " " : ""}${rare}${SPACED[lang] ? " " : ""}${text.slice(cut)}`;
		}
		if (rnd() < 0.3) text += ` [[${joinWords(langOf(i + 1), [pick(pool.words, 300), spell(scatter((i * 31 + p) % count, 7_001, NAME_DIGITS), NAME_DIGITS, (langPools().get(langOf((i * 31 + p) % count)) as LangPool).syllables)])}]]`;
		paragraphs.push(text);
		lines.push(text, "");
		size += text.length;
		if (rnd() < 0.05) lines.push("```ts", pick(codeSamples ?? []), "```", "");
		if (rnd() < 0.1) lines.push(`- ${pick(pool.words)}`, `- ${pick(pool.words)}`, `- [ ] ${pick(pool.words)}`, "");
		p++;
	}
	if (kind !== "note" && kind !== "long") lines.push(pathological(kind, rnd, pool), "");
	return { id: `${folder}/${name}.md`, name, text: lines.join("\n"), mtime: 1_700_000_000_000 + i * 1000, lang, kind, rare, nameWord, ownTag, tags, headings, paragraphs };
}
