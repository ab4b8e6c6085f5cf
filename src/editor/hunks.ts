// The hunk model of "Edit with Discover": the model's proposal for a stretch of a note, as hunks the
// person accepts or rejects one by one. A hunk is a run of changed lines (offsets into the original
// text); inside it, the words that changed are found for display. The line alignment is the write
// previews' own (src/tools/diff.ts): lines compared as numbers, the alignment bounded in cells, so a
// long note costs about its length, not its length squared.
import { diffSequences, type Op } from "../tools/diff";

/** One change of a proposal: replace `original.slice(from, to)` by `insert`. */
export interface Hunk {
	from: number;
	to: number;
	insert: string;
	/** Unique within one plan ("h1", "h2", … in the text's order). */
	id: string;
}

/** A stretch of a hunk's display: kept, struck through ("-") or highlighted ("+"). */
export interface WordPart {
	kind: " " | "-" | "+";
	text: string;
}

/** The lines of `text`, each with its line break: joined, they give `text` back exactly. */
export function linesOf(text: string): string[] {
	const out: string[] = [];
	let start = 0;
	for (;;) {
		const nl = text.indexOf("\n", start);
		if (nl < 0) break;
		out.push(text.slice(start, nl + 1));
		start = nl + 1;
	}
	if (start < text.length) out.push(text.slice(start));
	return out;
}

/**
 * The hunks that turn `original` into `proposal`: each run of changed lines is one hunk. Two hunks
 * are always apart by at least one unchanged line, so any subset of them applies without overlap.
 */
export function planEdit(original: string, proposal: string): Hunk[] {
	if (original === proposal) return [];
	const ops = diffSequences(linesOf(original), linesOf(proposal));
	const hunks: Hunk[] = [];
	let at = 0;
	let k = 0;
	while (k < ops.length) {
		const op = ops[k] as Op;
		if (op.kind === " ") {
			at += op.line.length;
			k++;
			continue;
		}
		const from = at;
		let insert = "";
		for (; k < ops.length && (ops[k] as Op).kind !== " "; k++) {
			const change = ops[k] as Op;
			if (change.kind === "-") at += change.line.length;
			else insert += change.line;
		}
		hunks.push({ from, to: at, insert, id: `h${hunks.length + 1}` });
	}
	return hunks;
}

/** The hunks sorted by position; throws when one lies outside `text` or two overlap (or insert at one point). */
function ordered(text: string, hunks: readonly Hunk[]): Hunk[] {
	const sorted = [...hunks].sort((a, b) => a.from - b.from || a.to - b.to);
	let prev: Hunk | undefined;
	for (const h of sorted) {
		const outside = h.from < 0 || h.to < h.from || h.to > text.length;
		// Two insertions at one point would give a text that depends on their order.
		const clash = prev !== undefined && (h.from < prev.to || (h.from === prev.from && h.to === h.from && prev.to === prev.from));
		if (outside || clash) throw new RangeError(`Hunk ${h.id} (${h.from}–${h.to}) ${outside ? `lies outside the text (${text.length} characters)` : `overlaps hunk ${prev?.id ?? ""}`}.`);
		prev = h;
	}
	return sorted;
}

/** `original` with the accepted hunks applied (any subset, in any order); the others leave their text as it was. */
export function applyHunks(original: string, hunks: readonly Hunk[], acceptedIds: Iterable<string>): string {
	const accepted = new Set(acceptedIds);
	const chosen = ordered(
		original,
		hunks.filter((h) => accepted.has(h.id)),
	);
	if (chosen.length === 0) return original;
	const parts: string[] = [];
	let at = 0;
	for (const h of chosen) {
		parts.push(original.slice(at, h.from), h.insert);
		at = h.to;
	}
	parts.push(original.slice(at));
	return parts.join("");
}

/** Words, runs of spaces, and single characters of scripts written without spaces (CJK) or punctuation. */
const TOKEN = /\s+|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}\p{M}_'’-]+|[^\s]/gu;

export function wordsOf(text: string): string[] {
	return text.match(TOKEN) ?? [];
}

/**
 * What a hunk shows: the removed and added text, word by word (the same alignment as the lines,
 * bounded the same way: a rewrite too large to align shows as one removed and one added block).
 */
export function hunkWords(removed: string, insert: string): WordPart[] {
	const parts: WordPart[] = [];
	for (const op of diffSequences(wordsOf(removed), wordsOf(insert))) {
		const last = parts[parts.length - 1];
		if (last?.kind === op.kind) last.text += op.line;
		else parts.push({ kind: op.kind, text: op.line });
	}
	return parts;
}
