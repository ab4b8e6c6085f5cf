// The room a fit leaves unused, filled. Passages are chosen by the sum of their own estimates,
// each with a gap mark's cost, and the weakest is dropped until the joined text fits: that sum
// overstates the text as sent (one gap between neighbours, not two; heading paths written once;
// every piece rounded up), and a dropped passage leaves up to its whole size unused. On a 32k
// window the fit used 0.93 of its share. Here the joined text is measured, not summed: whole
// passages that still fit go in, then the next one cut at a sentence or line end.
import { GAP, JOIN, pieceText, type Piece } from "./excerpts";

export type EstimateFn = (text: string) => number;

export interface TopUpInput {
	note: string;
	/** The pieces chosen so far, their text as sent and its estimate (within the budget). */
	pieces: readonly Piece[];
	text: string;
	sent: number;
	/** Passages not chosen, best first. */
	candidates: readonly number[];
	/** Try whole candidates before cutting one (relevance order); false: only cut the first. */
	wholeFirst: boolean;
	piece: (index: number) => Piece;
	/** A passage's own estimate (its heading path included). */
	cost: (index: number) => number;
	/** The text as sent for a set of pieces. */
	render: (pieces: readonly Piece[]) => string;
	budget: number;
	estimate: EstimateFn;
}

export interface TopUp {
	pieces: Piece[];
	text: string;
	sent: number;
}

/** Below this many tokens left, nothing is worth adding. */
export const TOP_UP_MIN_ROOM = 6;
/** Candidates whose start is tried as the last, cut piece. */
const CUT_CANDIDATES = 3;
/** Renderings of the whole text allowed to correct an addition the sum got wrong. */
const CORRECTIONS = 4;

/** Where a cut may end inside [start, end): after a sentence's end or a line's, in order. */
export function sentenceEnds(note: string, start: number, end: number): number[] {
	const ends: number[] = [];
	const re = /[.!?;:](?=[\s"'”’)\]])|[。！？；]|\n/g;
	const slice = note.slice(start, end);
	for (let m = re.exec(slice); m !== null; m = re.exec(slice)) {
		const at = start + m.index + m[0].length;
		if (at < end && note.slice(start, at).trim() !== "") ends.push(at);
	}
	return ends;
}

/**
 * Additions are priced on their own (a piece, its heading path, a gap mark each side) against the
 * measured text, so a 1 MB note is not estimated again per addition; the joined text is then
 * measured once, and an addition it does not hold is shrunk or taken back.
 */
export function topUpExcerpts(input: TopUpInput): TopUp {
	const { budget, estimate, note } = input;
	const joins = estimate(`${JOIN}${GAP}${JOIN}`) * 2;
	const taken = new Set(input.pieces.map((p) => p.index));
	const added: Piece[] = [];
	let room = budget - input.sent;
	if (input.wholeFirst) {
		for (const i of input.candidates) {
			if (room < TOP_UP_MIN_ROOM) break;
			const c = input.cost(i) + joins;
			if (taken.has(i) || c > room) continue;
			added.push(input.piece(i));
			taken.add(i);
			room -= c;
		}
	}
	const cutCandidates = input.candidates.filter((i) => !taken.has(i)).slice(0, input.wholeFirst ? CUT_CANDIDATES : 1);
	let cut: { index: number; room: number } | undefined;
	const cutPiece = (index: number, within: number): Piece | undefined => longestStart(note, input.piece(index), within - joins, estimate);
	for (const i of cutCandidates) {
		const p = room >= TOP_UP_MIN_ROOM ? cutPiece(i, room) : undefined;
		if (p === undefined) continue;
		added.push(p);
		cut = { index: i, room };
		break;
	}
	if (added.length === 0) return { pieces: [...input.pieces], text: input.text, sent: input.sent };
	for (let round = 0; round <= CORRECTIONS; round++) {
		const pieces = [...input.pieces, ...added];
		const text = input.render(pieces);
		const sent = estimate(text);
		if (sent <= budget) return { pieces, text, sent };
		if (added.length === 0 || round === CORRECTIONS) break;
		const last = added.pop();
		// A cut piece is cut shorter by what the whole text came out over; a whole one is taken back.
		if (cut !== undefined && last?.cut === true) {
			cut.room -= sent - budget + 1;
			const shorter = cut.room >= TOP_UP_MIN_ROOM ? cutPiece(cut.index, cut.room) : undefined;
			if (shorter !== undefined) added.push(shorter);
			else cut = undefined;
		}
	}
	return { pieces: [...input.pieces], text: input.text, sent: input.sent };
}

/** The longest start of `whole` ending at a sentence or line end whose own estimate is within `room`. */
function longestStart(note: string, whole: Piece, room: number, estimate: EstimateFn): Piece | undefined {
	const heading = whole.headingPath !== "" ? estimate(whole.headingPath) : 0;
	const ends = sentenceEnds(note, whole.start, whole.end);
	let lo = 0;
	let hi = ends.length - 1;
	let best: Piece | undefined;
	while (lo <= hi) {
		const mid = (lo + hi) >>> 1;
		const p: Piece = { ...whole, end: ends[mid] ?? whole.start, cut: true };
		if (heading + estimate(pieceText(note, p)) <= room) {
			best = p;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return best;
}
