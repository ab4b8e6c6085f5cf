// The labelled known-item queries for the 100,000-note vault (bench/vaultData.ts): 10 queries per
// language (English, German, Russian, Japanese, Chinese, Korean) and style, each with its one right
// note. Styles:
// - title: words of the note's title, as a person recalls it (its name and one other word);
// - rare: the note's rare word (no other note has it) plus two common words that the note holds;
// - phrase: eight words (CJK: 16 characters) from the middle of a long note;
// - typo: the title query with the name misspelled by one edit;
// - tag: the note's own tag plus one of its common tags;
// - heading: one of the note's headings.
// `npx tsx bench/knownItems.ts` writes bench/data/vault/known-items.json (the 100,000-note set,
// checked: every rare word, name and tag is in its note only); a smaller vault (VAULT_NOTES) gets its
// own set from the same functions.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { seededRandom } from "../tests/support/random";
import { langPools, VAULT_LANGS, vaultNote, type LangPool, type VaultLang, type VaultNote } from "./vaultData";

export type QueryStyle = "title" | "rare" | "phrase" | "typo" | "tag" | "heading";
export const STYLES: readonly QueryStyle[] = ["title", "rare", "phrase", "typo", "tag", "heading"];

export interface KnownItem {
	lang: VaultLang;
	style: QueryStyle;
	query: string;
	/** The right note's id (vault path) and number. */
	id: string;
	note: number;
}

const SPACED = (lang: VaultLang): boolean => lang !== "ja" && lang !== "zh";
const join_ = (lang: VaultLang, words: readonly string[]): string => words.join(SPACED(lang) ? " " : "");

/** One edit of `word` at a seeded place: a letter changed, dropped, added, or two swapped (CJK: a character changed). */
export function misspell(word: string, rnd: () => number, pool: LangPool): string {
	const chars = Array.from(word);
	const at = 1 + Math.floor(rnd() * (chars.length - 2));
	const other = (): string => {
		const from = Array.from(pool.syllables.join(""));
		let c = chars[at] ?? "";
		while (c === chars[at]) c = from[Math.floor(rnd() * from.length)] ?? "x";
		return c;
	};
	const kind = SPACED(pool.lang) && pool.lang !== "ko" ? Math.floor(rnd() * 4) : 0;
	if (kind === 0) chars[at] = other();
	else if (kind === 1) chars.splice(at, 1);
	else if (kind === 2) chars.splice(at, 0, other());
	else [chars[at], chars[at + 1]] = [chars[at + 1] ?? "", chars[at] ?? ""];
	return chars.join("");
}

function titleQuery(n: VaultNote, rnd: () => number): string {
	const others = n.name.replace(n.nameWord, "").trim();
	if (!SPACED(n.lang)) return `${others.slice(0, 2 + Math.floor(rnd() * 2))}${n.nameWord}`;
	const words = others.split(" ").filter((w) => w !== "");
	return `${words[Math.floor(rnd() * words.length)] ?? ""} ${n.nameWord}`;
}

function queryFor(style: QueryStyle, n: VaultNote, rnd: () => number, pool: LangPool): string | undefined {
	switch (style) {
		case "title":
			return titleQuery(n, rnd);
		case "typo":
			return titleQuery(n, rnd).replace(n.nameWord, misspell(n.nameWord, rnd, pool));
		case "rare": {
			const body = n.paragraphs.join(" ");
			const common = pool.words.slice(0, 300).filter((w) => w.length >= (SPACED(n.lang) ? 4 : 2) && body.includes(w));
			if (common.length < 2) return undefined;
			const a = common[Math.floor(rnd() * common.length)] ?? "";
			const b = common.filter((w) => w !== a)[Math.floor(rnd() * (common.length - 1))] ?? "";
			return join_(n.lang, SPACED(n.lang) ? [a, n.rare, b] : [a, n.rare, b]);
		}
		case "phrase": {
			if (n.kind !== "long") return undefined;
			const p = n.paragraphs[Math.floor(n.paragraphs.length / 2)] ?? "";
			if (SPACED(n.lang)) {
				const words = p.split(" ");
				const from = Math.max(0, Math.floor(words.length / 2) - 4);
				return words.slice(from, from + 8).join(" ");
			}
			const from = Math.max(0, Math.floor(p.length / 2) - 8);
			return p.slice(from, from + 16);
		}
		case "tag":
			if (!n.ownTag) return undefined;
			return `#${n.ownTag} #${n.tags.find((t) => t !== n.ownTag) ?? ""}`;
		case "heading":
			return n.headings[Math.floor(rnd() * n.headings.length)];
	}
}

/** 10 queries per language and style (360) whose right notes are among the first `count` notes. */
export function knownItems(count: number, skip: ReadonlySet<number> = new Set()): KnownItem[] {
	const pools = langPools();
	const out: KnownItem[] = [];
	VAULT_LANGS.forEach((lang, l) => {
		const pool = pools.get(lang) as LangPool;
		STYLES.forEach((style, s) => {
			const rnd = seededRandom(1000 * l + s + 1);
			const used = new Set<number>();
			for (let tries = 0; out.filter((q) => q.lang === lang && q.style === style).length < 10 && tries < 10_000; tries++) {
				const k = Math.floor(rnd() * Math.floor(count / VAULT_LANGS.length));
				const i = k * VAULT_LANGS.length + l;
				if (i >= count || used.has(i) || skip.has(i)) continue;
				const n = vaultNote(i, count);
				if (n.kind !== "note" && n.kind !== "long") continue;
				const query = queryFor(style, n, rnd, pool);
				if (!query || query.trim() === "") continue;
				used.add(i);
				out.push({ lang, style, query, id: n.id, note: i });
			}
		});
	});
	return out;
}

/** Words that must be in their own note only: each item's rare word and own tag. Returns those found in another note too. */
export function checkUnique(items: readonly KnownItem[], count: number): Set<number> {
	const owner = new Map<string, number>();
	for (const q of items) {
		const n = vaultNote(q.note, count);
		if (q.style === "rare") owner.set(n.rare, q.note);
		if (q.style === "tag" && n.ownTag) owner.set(n.ownTag, q.note);
	}
	const keys = [...owner.keys()];
	const firsts = new Set(keys.map((k) => k.charAt(0)));
	const lengths = [...new Set(keys.map((k) => k.length))];
	const clashes = new Set<number>();
	for (let i = 0; i < count; i++) {
		const text = vaultNote(i, count).text;
		for (let at = 0; at < text.length; at++) {
			if (!firsts.has(text.charAt(at))) continue;
			for (const len of lengths) {
				const o = owner.get(text.slice(at, at + len));
				if (o !== undefined && o !== i) clashes.add(o);
			}
		}
	}
	return clashes;
}

if (process.argv[1]?.endsWith("knownItems.ts")) {
	const count = 100_000;
	// Notes whose rare word or own tag turns up in another note (two names can spell alike) are skipped.
	const skip = new Set<number>();
	let items = knownItems(count);
	for (let clashes = checkUnique(items, count); clashes.size > 0; clashes = checkUnique(items, count)) {
		for (const i of clashes) skip.add(i);
		items = knownItems(count, skip);
	}
	const file = join(import.meta.dirname, "data", "vault", "known-items.json");
	writeFileSync(file, JSON.stringify(items, null, "\t") + "\n");
	console.log(`${items.length} queries written to ${file} (notes skipped as not unique: ${[...skip].join(", ") || "none"})`);
}
