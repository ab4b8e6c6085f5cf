// The vault's lexical index: every note's passages (passages.ts) under BM25, updated one note at a
// time. Hand-written rather than MiniSearch: bench/context.ts compared both (bundle bytes, build and
// query time, heap, saved size) and the README has the figures; this one shares the analyzer
// (CJK bigrams, folding, identifiers) with relevance fitting, so `@vault` and the fitted notes
// agree on what a match is.
//
// Memory (10,000 notes / 40 MB must stay under 150 MB, see the README):
// - postings are pooled (postingPool.ts): one entry, passage id × 1024 + term frequency, 4 bytes,
//   while a list is being added to; the build encodes them again every so often (compactSteps,
//   driven by indexInSlices) into the saved layout, about 1.5 bytes each, decoded on first use;
// - a term whose last posting goes is dropped from the term table, and its id reused;
// - a note's text is kept only with `keepText` (the default, for scripts; the app's index service
//   turns it off and reads a hit's note from the vault instead: noteHits.ts), in its compact form:
//   UTF-8 bytes when those are smaller than the JS string, decoded per hit;
// - per note, the ids of its terms as delta varints (noteTerms.ts) and a hash of its text: removing
//   a note finds each of its postings by binary search (lists are ascending, postingPool.ts), and a
//   hit whose note changed since is re-indexed before its offsets are used.
// Huge notes: `upsertSteps` analyzes a note in steps (indexInSlices drives it) and changes the index
// only in its last step, so a search never sees half a note. Saving and loading: noteIndexFormat.ts.
//
// The class is layered by responsibility: noteTables.ts (the tables and their primitives),
// noteIndexStore.ts (what the saved forms read and write), noteUpserts.ts (upsert and remove, whole
// or in steps), and here search and the saved forms' entry points.
import { weightedQuery } from "./bm25";
import { neighbourPairs, type RankedNote } from "./noteRanking";
import { hitsOf, liftPhrase, liftTitles, phraseCandidates, quotedPhrase, TITLE_CANDIDATES, type Candidate } from "./noteHits";
import { expandMisspelled } from "./fuzzyTerms";
import { textHash } from "./noteTerms";
import { indexFromJson, indexToJson } from "./noteIndexJson";
import { decodeBinary, encodeBinary } from "./noteIndexFormat";
import { compactText, textOf } from "./noteText";
import type { NoteRecord } from "./noteTables";
import { NoteUpserts } from "./noteUpserts";
import { drain, runInSlices, type SliceTiming } from "./steps";

export { NOTE_INDEX_FORMAT, NOTE_INDEX_VERSION } from "./noteIndexFormat";

export interface NoteSearchHit {
	/** The note's id (its vault path). */
	id: string;
	name: string;
	score: number;
	/** The passage's text ("" from `search` of an index that keeps no texts: use searchWithText). */
	text: string;
	/** Where the passage is in the note's text (UTF-16 units). */
	start?: number;
	end?: number;
}

export { DEFAULT_INDEX_NOTE_CHARS, defaultName, indexedLength } from "./noteUpserts";

export class NoteIndex extends NoteUpserts {
	/**
	 * The passages most relevant to `query`, best first (default limit 10). Notes are ranked on all
	 * of them (noteRanking.ts): each query term counts once per note, by its best passage, so a rare
	 * word in one paragraph and common words in another add up. A note's passages follow it, best
	 * first, at most `perNote` of them (default 3); every hit's score is its note's.
	 */
	search(query: string, opts: { limit?: number; perNote?: number } = {}): NoteSearchHit[] {
		const limit = Math.max(0, Math.floor(opts.limit ?? 10));
		const perNote = Math.max(1, Math.floor(opts.perNote ?? 3));
		const phrase = quotedPhrase(query);
		const candidates = this.candidates(query, limit, phrase !== undefined);
		const text = (c: Candidate): string | undefined => {
			const body = this.notes.get(c.id)?.body;
			return body === undefined ? undefined : textOf(body);
		};
		if (phrase) liftPhrase(candidates, phrase, text);
		return hitsOf(candidates, limit, perNote, text);
	}

	/**
	 * @internal The best notes for `query`, best first, each with its passages that hold a query
	 * term (best first): `limit` notes, or more (PHRASE_CANDIDATES) when `forPhrase`, for
	 * liftPhrase to reorder. The best TITLE_CANDIDATES are ranked, and those whose names (or one of
	 * whose headings) hold the query lifted (liftTitles), before they are cut to that number (for a phrase, by their best
	 * passages: phraseCandidates). Ties in note order, not by internal ids: a loaded index numbers
	 * them anew.
	 */
	candidates(query: string, limit: number, forPhrase: boolean): Candidate[] {
		if (limit <= 0 || this.liveDocs === 0) return [];
		const weighted = expandMisspelled(weightedQuery(query), this.termIds, (c) => this.followers.of(c));
		const source = {
			postings: (term: string): Uint32Array | undefined => {
				const id = this.termIds.get(term);
				return id === undefined ? undefined : this.pool.view(id);
			},
			docCount: this.liveDocs,
			avgLength: this.totalLength / this.liveDocs,
			docLength: this.docLength.data,
			docSlot: this.docSlot.data,
			noteSlots: this.slotNote.length,
		};
		const before = (a: number, b: number): boolean => (this.slotNote[a] as NoteRecord).id < (this.slotNote[b] as NoteRecord).id;
		const wanted = forPhrase ? Math.max(limit, PHRASE_CANDIDATES) : limit;
		// The heading paths of a note's two best passages: a query that is one of its headings is in
		// the terms of every passage under it twice (its path and the heading's line), so those score
		// best. Reading every passage's path was 1.8 ms a query (600 paths).
		const headings = (r: RankedNote): string[] => {
			let first = -1;
			let second = -1;
			let best = -Infinity;
			let next = -Infinity;
			for (const d of r.docs) {
				const score = r.passageScore(d);
				if (score > best) {
					[second, next, first, best] = [first, best, d, score];
				} else if (score > next) [second, next] = [d, score];
			}
			return [first, second].filter((d) => d >= 0).map((d) => this.docPath[d] ?? "");
		};
		const ranked = this.ranker.rank(weighted, source, Math.max(wanted, TITLE_CANDIDATES), before, neighbourPairs(query)).map((r) => ({ r, note: this.slotNote[r.slot] as NoteRecord, name: (this.slotNote[r.slot] as NoteRecord).name, score: r.score, headings: () => headings(r) }));
		const lifted = liftTitles(ranked, query);
		const chosen = forPhrase ? phraseCandidates(ranked, wanted, lifted, ({ r }) => r.docs.reduce((best, d) => Math.max(best, r.passageScore(d)), 0)) : ranked.slice(0, wanted);
		return chosen.map(({ r, note, score }) => {
			// Best first, then in the note's order; each passage's score read once, not per comparison.
			const passages = r.docs.map((d) => ({ score: r.passageScore(d), start: this.docStart.get(d), end: this.docEnd.get(d) }));
			passages.sort((a, b) => b.score - a.score || a.start - b.start);
			return { id: note.id, name: note.name, score, hash: note.hash, chars: note.chars, passages: passages.map(({ start, end }) => ({ start, end })) };
		});
	}

	/** @internal Terms whose postings are still in the loaded bytes, not yet decoded (lazyPostings.ts). */
	get undecodedTerms(): number {
		return this.pool.undecoded;
	}

	/** The saved form as JSON-ready data (noteIndexJson.ts; `toBinary` is smaller and loads faster). */
	toJSON(): unknown {
		return indexToJson(this);
	}

	/**
	 * Loads a saved index. Data that is not a saved index, or one of another format version, throws
	 * an Error saying so (the caller rebuilds); nothing is half-loaded.
	 */
	static fromJSON(data: unknown): NoteIndex {
		const index = new NoteIndex();
		indexFromJson(data, index, compactText, textHash);
		return index;
	}

	/** The saved form as bytes, for `adapter.writeBinary` (layout: noteIndexFormat.ts). */
	toBinary(): Uint8Array {
		return drain(encodeBinary(this)) as Uint8Array;
	}

	/**
	 * `toBinary` spread over slices of about `sliceMs` (default 10), awaiting `yieldFn` between them.
	 * A change to the index between two slices starts it again; after three such restarts it
	 * finishes in one task, so the bytes always match one state of the index.
	 */
	async toBinaryInSlices(yieldFn: () => Promise<void>, options: { sliceMs?: number; now?: () => number; timing?: SliceTiming } = {}): Promise<Uint8Array> {
		for (let attempt = 0; attempt < 3; attempt++) {
			const bytes = await runInSlices(encodeBinary(this), yieldFn, options);
			if (bytes) return bytes;
		}
		return this.toBinary();
	}

	/** Loads bytes written by `toBinary` (an ArrayBuffer from `adapter.readBinary` is fine). Throws like fromJSON. */
	static fromBinary(data: ArrayBuffer | Uint8Array, options: { keepText?: boolean } = {}): NoteIndex {
		const index = new NoteIndex(options);
		drain(decodeBinary(data, index));
		index.loadedVersion = savedVersion(data);
		return index;
	}

	/** `fromBinary` spread over slices of about `sliceMs`, awaiting `yieldFn` between them. */
	static async loadInSlices(data: ArrayBuffer | Uint8Array, yieldFn: () => Promise<void>, options: { sliceMs?: number; now?: () => number; timing?: SliceTiming; keepText?: boolean } = {}): Promise<NoteIndex> {
		const index = new NoteIndex({ keepText: options.keepText });
		await runInSlices(decodeBinary(data, index), yieldFn, options);
		index.loadedVersion = savedVersion(data);
		return index;
	}

	/** The format version the index was loaded from (an older one is worth saving again), or undefined when it was built. */
	loadedVersion: number | undefined = undefined;
}

function savedVersion(data: ArrayBuffer | Uint8Array): number {
	const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
	return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
}

/** Notes checked for a query's exact words (the best this many by score). */
const PHRASE_CANDIDATES = 50;
