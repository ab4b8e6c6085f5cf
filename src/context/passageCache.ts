// Passages and their BM25 index, cut once per note version. A send fits the same notes again and
// again (the active note, the notes the person added), so the cutting and term analysis of a 1 MB
// note (tens of milliseconds) is paid on its first send and then only on a change.
// Keyed by source id; an entry is valid while its text equals the text passed (a pointer compare
// when the caller holds the same string, a memcmp otherwise; no hashing). Bounded by entries and
// by total characters, least recently used first out.
import { splitsPair } from "../core/surrogates";
import { Bm25Corpus } from "./bm25";
import { headingLine } from "./excerpts";
import { cutPassages, cutPassagesSteps, type Passage } from "./passages";
import { runInSlices, type SliceTiming, type Steps } from "./steps";
import { appendTerms } from "./terms";

export interface NoteCosts {
	total: number;
	passage: (number | undefined)[];
	approximate?: boolean;
}

export interface NotePassages {
	text: string;
	name: string;
	passages: Passage[];
	corpus: Bm25Corpus;
	/**
	 * Per estimator: the whole note's tokens and each passage's (filled as needed). `approximate`:
	 * the total is the sum of the note's pieces' estimates (preparePassages counts a long note in
	 * slices), so a send that might send it whole estimates it once more, whole.
	 */
	costs: WeakMap<object, NoteCosts>;
}

const MAX_ENTRIES = 64;
const MAX_CHARS = 32_000_000;

const cache = new Map<string, NotePassages>();
let cachedChars = 0;
/** Lookups by a send (passagesOf) that found the note analyzed, and those that had to analyze it. */
const counts = { hits: 0, misses: 0 };

/** Each passage's terms: the note's name and the passage's heading path count as its terms too. */
function passageTerms(text: string, name: string, passages: readonly Passage[]): string[][] {
	const nameTerms: string[] = [];
	appendTerms(name, nameTerms);
	return passages.map((p) => {
		const list = [...nameTerms];
		appendTerms(p.headingPath, list);
		appendTerms(text.slice(p.start, p.end), list);
		return list;
	});
}

/** A passage's tokens as sent (its text without trailing space, plus the path line above it), cached in `costs`. */
export function passageCost(entry: NotePassages, index: number, estimate: (text: string) => number, costs: (number | undefined)[]): number {
	let c = costs[index];
	if (c === undefined) {
		const p = entry.passages[index];
		if (!p) return Infinity;
		const line = headingLine(entry.text, { ...p, index });
		c = estimate(entry.text.slice(p.start, p.end).replace(/\s+$/, "")) + (line !== "" ? estimate(line) : 0);
		costs[index] = c;
	}
	return c;
}

/** Characters of passages analyzed per step of `analyzeNoteSteps`. */
const STEP_CHARS = 16_000;

/** The passages of a note and their BM25 index. */
export function analyzeNote(text: string, name = ""): NotePassages {
	const passages = cutPassages(text);
	const docs = passageTerms(text, name, passages);
	return { text, name, passages, corpus: new Bm25Corpus(docs), costs: new WeakMap() };
}

/** `analyzeNote` as steps: cutting, then the passages' terms STEP_CHARS at a time, then the index. */
function* analyzeNoteSteps(text: string, name: string): Steps<NotePassages> {
	const passages = yield* cutPassagesSteps(text);
	yield;
	const docs: string[][] = [];
	let from = 0;
	while (from < passages.length) {
		let to = from + 1;
		const stop = (passages[from]?.start ?? 0) + STEP_CHARS;
		while (to < passages.length && (passages[to]?.end ?? 0) <= stop) to++;
		for (const d of passageTerms(text, name, passages.slice(from, to))) docs.push(d);
		from = to;
		yield;
	}
	const corpus = yield* Bm25Corpus.build(docs);
	return { text, name, passages, corpus, costs: new WeakMap() };
}

/** Characters estimated per step, at most, when a long note's total is counted in pieces. */
export const ESTIMATE_STEP_CHARS = 256_000;
/**
 * The first piece's characters; each next piece is twice the last, up to ESTIMATE_STEP_CHARS. The
 * estimator runs slower before the JIT has compiled it: on a 200-page PDF's text (822,000
 * characters) in a fresh Node process, a first piece of 256,000 took 10–33 ms of CPU, the next
 * ones 0.4–6 (a loaded 2-core machine); first pieces of 16,000 and 32,000 took 5–10 and under 11.
 */
export const FIRST_ESTIMATE_CHARS = 16_000;

/**
 * Where the piece of `text` from `start` ends: at a line end (else a space) near `size` characters
 * on, never inside a surrogate pair, so the pieces' estimates add up close to the whole's.
 */
function pieceEnd(text: string, start: number, size: number): number {
	const limit = start + size;
	if (limit >= text.length) return text.length;
	// Looked for back to the piece's middle only: lastIndexOf would search a line-less note back to
	// its start for every piece (quadratic).
	const nl = lastCodeBetween(text, 10, start + size / 2, limit);
	if (nl >= 0) return nl + 1;
	const sp = lastCodeBetween(text, 32, start + size / 2, limit);
	if (sp >= 0) return sp + 1;
	return splitsPair(text, limit) ? limit + 1 : limit;
}

/** The last index in (after, at] where `text` has the char code `code`, or -1. */
function lastCodeBetween(text: string, code: number, after: number, at: number): number {
	for (let i = at; i > after; i--) if (text.charCodeAt(i) === code) return i;
	return -1;
}

/** The note's tokens under `estimate`: whole for a short note, else the sum of its pieces', a piece a step (small first, doubling). */
export function* estimateSteps(text: string, estimate: (text: string) => number): Steps<NoteCosts> {
	if (text.length <= FIRST_ESTIMATE_CHARS) return { total: estimate(text), passage: [] };
	let total = 0;
	let size = FIRST_ESTIMATE_CHARS;
	for (let at = 0; at < text.length; ) {
		const end = pieceEnd(text, at, size);
		total += estimate(text.slice(at, end));
		at = end;
		size = Math.min(ESTIMATE_STEP_CHARS, size * 2);
		yield;
	}
	return { total, passage: [], approximate: true };
}

function* pricePassages(entry: NotePassages, estimate: (text: string) => number, costs: (number | undefined)[]): Steps<void> {
	let chars = 0;
	for (let i = 0; i < entry.passages.length; i++) {
		passageCost(entry, i, estimate, costs);
		const p = entry.passages[i];
		chars += p ? p.end - p.start : 0;
		if (chars >= STEP_CHARS) {
			chars = 0;
			yield;
		}
	}
}

function cached(id: string, text: string, name: string): NotePassages | undefined {
	const hit = cache.get(id);
	if (!hit || hit.text !== text || hit.name !== name) return undefined;
	cache.delete(id);
	cache.set(id, hit);
	return hit;
}

/** `analyzeNote`, cached by source id and text. */
export function passagesOf(id: string, text: string, name = ""): NotePassages {
	const hit = cached(id, text, name);
	if (hit) counts.hits++;
	else counts.misses++;
	return hit ?? store(id, analyzeNote(text, name));
}

/** How often a send found a note analyzed (since the start): tests and benches check preparation by it. */
export function passageCacheCounts(): { hits: number; misses: number } {
	return { ...counts };
}

/**
 * Fills the cache for a note without holding the thread: the panel calls it when a note becomes a
 * source (the active note opens, a note is added), so the send that fits it finds it cached. A 1 MB
 * note is a few slices of about `sliceMs`.
 */
export async function preparePassages(id: string, text: string, name: string, yieldFn: () => Promise<void>, options: { sliceMs?: number; timing?: SliceTiming; estimate?: (text: string) => number } = {}): Promise<NotePassages> {
	const entry = cached(id, text, name) ?? store(id, await runInSlices(analyzeNoteSteps(text, name), yieldFn, options));
	// The whole note's tokens under the send's estimator (relevanceFit.ts reads them first): one more slice.
	const { estimate } = options;
	if (estimate && !entry.costs.has(estimate)) {
		await yieldFn();
		const costs = await runInSlices(estimateSteps(text, estimate), yieldFn, options);
		entry.costs.set(estimate, costs);
		// Each passage's price too: a send that weighs passages which do not fit would price them all.
		await runInSlices(pricePassages(entry, estimate, costs.passage), yieldFn, options);
	}
	return entry;
}

function store(id: string, entry: NotePassages): NotePassages {
	const hit = cache.get(id);
	if (hit) {
		cache.delete(id);
		cachedChars -= hit.text.length;
	}
	const text = entry.text;
	cache.set(id, entry);
	cachedChars += text.length;
	for (const [key, old] of cache) {
		if (cache.size <= MAX_ENTRIES && cachedChars <= MAX_CHARS) break;
		if (key === id) continue;
		cache.delete(key);
		cachedChars -= old.text.length;
	}
	return entry;
}

/** Empties the cache (tests, and a plugin unload). */
export function clearPassageCache(): void {
	cache.clear();
	cachedChars = 0;
}

/** How many notes the cache holds, and their characters. */
export function passageCacheSize(): { entries: number; chars: number } {
	return { entries: cache.size, chars: cachedChars };
}
