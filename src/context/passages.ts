// A Markdown note cut into passages of roughly 100–300 tokens at heading and paragraph boundaries,
// the unit relevance fitting scores and sends. Passages tile the text: consecutive, no overlap, no
// gap, so any set of them maps back to the note by character range.
// - A heading starts a new passage; its path ("# A > ## B") labels every passage under it.
// - Paragraphs (blank-line separated) are merged until a passage reaches the target size.
// - A paragraph over the maximum is split at sentence ends, then at line ends, then at spaces.
// - A fenced code block is never split unless it alone is over the maximum (then at line ends).
// Sizes here are a cheap character-class approximation (CJK ≈ 1 token a character, else ≈ 4
// characters a token): passages are cut once per note version, whatever estimator sends them.

import { splitsPair } from "../core/surrogates";
import { drain, type Steps } from "./steps";

export interface Passage {
	/** Character range in the note: [start, end). */
	start: number;
	end: number;
	/** "# A > ## B": the headings above the passage, outermost first ("" before the first heading). */
	headingPath: string;
}

export const PASSAGE_TARGET_TOKENS = 200;
export const PASSAGE_MAX_TOKENS = 300;
export const PASSAGE_MIN_TOKENS = 100;

/** Characters the cutter has scanned to count sizes (tests check the cut stays linear by it). */
export const passageScan = { chars: 0 };

/** Approximate tokens of text[start, end): CJK and other dense letters count 1, the rest ¼. */
export function roughTokens(text: string, start = 0, end = text.length): number {
	passageScan.chars += Math.max(0, end - start);
	let dense = 0;
	for (let i = start; i < end; i++) {
		const c = text.charCodeAt(i);
		if (c >= 0x2e80 && c < 0xdc00) dense++;
	}
	return dense + (end - start - dense) / 4;
}

interface Block {
	start: number;
	end: number;
	headingPath: string;
	/** A heading line starts a new passage. */
	heading: boolean;
	fence: boolean;
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * `text` with every line the cutter would read as a heading or a code fence escaped (a backslash
 * before its mark): text from outside Markdown (a PDF's page) cannot open sections of its own, or a
 * fence that swallows the headings after it.
 */
export function literalLines(text: string): string {
	return text.replace(/^.*$/gm, (line) => (HEADING.test(line) || FENCE.test(line) ? line.replace(/^( {0,3})/, "$1\\") : line));
}

/**
 * The note as blocks: heading lines, fenced code blocks and paragraphs (each with its trailing blank
 * lines), appended to `out`, yielding every CUT_STEP_CHARS characters.
 */
function* blocks(text: string, out: Block[]): Steps<void> {
	let sinceYield = 0;
	const stack: { level: number; title: string }[] = [];
	let path = "";
	let pos = 0;
	let para: Block | null = null;
	let fence: { marker: string; block: Block } | null = null;
	const close = (): void => {
		if (para) out.push(para);
		para = null;
	};
	while (pos < text.length) {
		let nl = text.indexOf("\n", pos);
		if (nl < 0) nl = text.length - 1;
		const lineEnd = nl + 1;
		const lineStop = text.charCodeAt(nl) === 10 ? nl : lineEnd;
		// Most lines are prose: the regexes run only on lines whose first non-space is # ` or ~.
		const first = firstNonSpace(text, pos, lineStop);
		const marker = first === 0x23 || first === 0x60 || first === 0x7e;
		const line = marker ? text.slice(pos, lineStop) : "";
		if (fence) {
			fence.block.end = lineEnd;
			const m = marker ? FENCE.exec(line) : null;
			if (m && m[1] !== undefined && m[1][0] === fence.marker[0] && m[1].length >= fence.marker.length && line.trim() === m[1]) {
				out.push(fence.block);
				fence = null;
			}
		} else {
			const fenceOpen = marker ? FENCE.exec(line) : null;
			const heading = marker ? HEADING.exec(line) : null;
			if (fenceOpen && fenceOpen[1] !== undefined) {
				close();
				fence = { marker: fenceOpen[1], block: { start: pos, end: lineEnd, headingPath: path, heading: false, fence: true } };
			} else if (heading && heading[1] !== undefined) {
				close();
				const level = heading[1].length;
				while (stack.length > 0 && (stack[stack.length - 1]?.level ?? 0) >= level) stack.pop();
				stack.push({ level, title: `${heading[1]} ${heading[2] ?? ""}`.trim() });
				path = stack.map((h) => h.title).join(" > ");
				out.push({ start: pos, end: lineEnd, headingPath: path, heading: true, fence: false });
			} else if (first === -1) {
				// Blank lines end a paragraph and belong to what precedes them.
				const prev = para ?? out[out.length - 1];
				if (prev) prev.end = lineEnd;
				else para = { start: pos, end: lineEnd, headingPath: path, heading: false, fence: false };
				close();
			} else if (para) para.end = lineEnd;
			else para = { start: pos, end: lineEnd, headingPath: path, heading: false, fence: false };
		}
		sinceYield += lineEnd - pos;
		pos = lineEnd;
		if (sinceYield >= CUT_STEP_CHARS) {
			sinceYield = 0;
			yield;
		}
	}
	if (fence) out.push(fence.block);
	close();
}

/** The first character of text[start, end) that is not white space, or -1 for a blank line. */
function firstNonSpace(text: string, start: number, end: number): number {
	for (let i = start; i < end; i++) {
		const c = text.charCodeAt(i);
		if (c !== 32 && c !== 9 && c !== 13 && c !== 10 && c !== 12 && c !== 11 && c !== 0xa0 && c !== 0xfeff && !(c >= 0x2000 && c <= 0x200a) && c !== 0x3000 && c !== 0x1680 && c !== 0x2028 && c !== 0x2029 && c !== 0x202f && c !== 0x205f) return c;
	}
	return -1;
}

/** Where a sentence ends: the pattern the scanner below follows (kept for the tests that compare them). */
export const SENTENCE_END = /[.!?。！？]["')\]」』]*(?:\s+|(?=[^\s]))|\n/g;

/** JavaScript's \s, by char code. */
function isSpace(c: number): boolean {
	return (c >= 9 && c <= 13) || c === 32 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

function isSentencePunct(c: number): boolean {
	return c === 0x2e || c === 0x21 || c === 0x3f || c === 0x3002 || c === 0xff01 || c === 0xff1f;
}

function isCloser(c: number): boolean {
	return c === 0x22 || c === 0x27 || c === 0x29 || c === 0x5d || c === 0x300d || c === 0x300f;
}

/**
 * The first match of SENTENCE_END (or of "\n" alone, for `lines`) that starts in text[from, limit),
 * as [start, end), or undefined. Unlike the regex it stops looking at `limit`, so the cutter can
 * look through a long line a step at a time.
 */
export function nextBoundary(text: string, from: number, limit: number, lines: boolean): [number, number] | undefined {
	const n = text.length;
	const stop = Math.min(limit, n);
	for (let i = from; i < stop; i++) {
		const c = text.charCodeAt(i);
		if (c === 10) {
			passageScan.chars += i + 1 - from;
			return [i, i + 1];
		}
		if (lines || !isSentencePunct(c)) continue;
		let j = i + 1;
		while (j < n && isCloser(text.charCodeAt(j))) j++;
		// At the end of the text the pattern needs a space or a following character: the last closer
		// is that character (the regex backtracks to it), and without a closer there is no match here.
		if (j >= n) {
			if (j === i + 1) continue;
			passageScan.chars += j - 1 - from;
			return [i, j - 1];
		}
		if (isSpace(text.charCodeAt(j))) {
			while (j < n && isSpace(text.charCodeAt(j))) j++;
		}
		passageScan.chars += j - from;
		return [i, j];
	}
	passageScan.chars += Math.max(0, stop - from);
	return undefined;
}

/**
 * Cut points inside text[start, end), appended to `cuts`, so no piece is over `max` rough tokens.
 * One pass: each boundary's span is counted once, and a span over the maximum is cut at spaces
 * (hardCut) with what is left of it counted down, never recounted from the piece's start. Every
 * part of it (looking for the next boundary, counting a span, the hard cuts) yields after about
 * CUT_STEP_CHARS characters, so one 16 MB line is cut across many steps too.
 */
function* splitHuge(text: string, start: number, end: number, max: number, lines: boolean, cuts: number[]): Steps<void> {
	let pieceStart = start;
	let lastBoundary = -1;
	// Tokens of text[pieceStart, lastBoundary), kept as boundaries pass.
	let pieceTokens = 0;
	let sinceYield = 0;
	let scan = start;
	let b = start;
	const counted = { tokens: 0 };
	while (b < end) {
		// The next boundary, looked for a step at a time.
		let m: [number, number] | undefined;
		for (;;) {
			const limit = Math.min(end, scan + CUT_STEP_CHARS);
			m = nextBoundary(text, scan, limit, lines);
			if (m !== undefined || limit >= end) break;
			scan = limit;
			yield;
		}
		b = m === undefined ? end : Math.min(end, m[1]);
		if (m !== undefined) scan = m[1];
		const from = Math.max(lastBoundary, pieceStart);
		yield* countTokens(text, from, b, counted);
		const step = counted.tokens;
		if (pieceTokens + step > max) {
			let left = step;
			if (lastBoundary > pieceStart) {
				cuts.push(lastBoundary);
				pieceStart = lastBoundary;
			} else left += pieceTokens;
			// One sentence or line over the maximum: cut it at spaces (or anywhere, for CJK).
			let cutChars = 0;
			while (left > max) {
				const cut = hardCut(text, pieceStart, b, max);
				left -= roughTokens(text, pieceStart, cut);
				cutChars += cut - pieceStart;
				cuts.push(cut);
				pieceStart = cut;
				if (cutChars >= CUT_STEP_CHARS) {
					cutChars = 0;
					yield;
				}
			}
			pieceTokens = left;
		} else pieceTokens += step;
		lastBoundary = b;
		sinceYield += b - from;
		if (sinceYield >= CUT_STEP_CHARS) {
			sinceYield = 0;
			yield;
		}
	}
}

/** roughTokens(text, start, end) into `out.tokens`, yielding every CUT_STEP_CHARS characters (the same sum: it adds whole counts and quarters). */
function* countTokens(text: string, start: number, end: number, out: { tokens: number }): Steps<void> {
	let tokens = 0;
	for (let at = start; at < end; ) {
		const to = Math.min(end, at + CUT_STEP_CHARS);
		tokens += roughTokens(text, at, to);
		at = to;
		if (at < end) yield;
	}
	out.tokens = tokens;
}

function hardCut(text: string, start: number, end: number, max: number): number {
	let at = start;
	let tokens = 0;
	while (at < end && tokens < max) {
		const c = text.charCodeAt(at);
		tokens += c >= 0x2e80 && c < 0xdc00 ? 1 : 0.25;
		at++;
	}
	passageScan.chars += at - start;
	// Back to a space when one is near; never between the halves of a surrogate pair.
	for (let i = at; i > at - 40 && i > start + 1; i--) {
		if (text.charCodeAt(i - 1) === 32) return i;
	}
	if (at < end && splitsPair(text, at)) at++;
	return Math.min(Math.max(at, start + 1), end);
}

/** Characters cut between two yields of `cutPassagesSteps` (about a millisecond of work). */
export const CUT_STEP_CHARS = 128_000;

/** Cuts `text` into passages (uncached; see `passagesOf` for the cached form). */
export function cutPassages(text: string, target = PASSAGE_TARGET_TOKENS, max = PASSAGE_MAX_TOKENS): Passage[] {
	return drain(cutPassagesSteps(text, target, max));
}

/**
 * `cutPassages` as steps of about CUT_STEP_CHARS characters each, so a 16 MB note is cut across
 * many tasks (indexInSlices and preparePassages run the steps between yields). Linear in the length.
 */
export function* cutPassagesSteps(text: string, target = PASSAGE_TARGET_TOKENS, max = PASSAGE_MAX_TOKENS): Steps<Passage[]> {
	const out: Passage[] = [];
	let cur: { start: number; end: number; headingPath: string; tokens: number; body: boolean } | null = null;
	const flush = (): void => {
		if (cur) out.push({ start: cur.start, end: cur.end, headingPath: cur.headingPath });
		cur = null;
	};
	const all: Block[] = [];
	yield* blocks(text, all);
	let sinceYield = 0;
	const counted = { tokens: 0 };
	for (const b of all) {
		yield* countTokens(text, b.start, b.end, counted);
		const tokens = counted.tokens;
		sinceYield += b.end - b.start;
		if (sinceYield >= CUT_STEP_CHARS) {
			sinceYield = 0;
			yield;
		}
		if (b.heading) {
			// A heading right after a heading (no body yet) joins it: one passage, the deeper path.
			if (cur && !cur.body) {
				cur.end = b.end;
				cur.headingPath = b.headingPath;
				cur.tokens += tokens;
				continue;
			}
			flush();
			cur = { start: b.start, end: b.end, headingPath: b.headingPath, tokens, body: false };
			continue;
		}
		if (tokens > max) {
			flush();
			const cuts: number[] = [];
			yield* splitHuge(text, b.start, b.end, max, b.fence, cuts);
			let from = b.start;
			for (const cut of [...cuts.filter((c) => c > b.start && c < b.end), b.end]) {
				out.push({ start: from, end: cut, headingPath: b.headingPath });
				from = cut;
			}
			continue;
		}
		if (cur && cur.tokens + tokens > (cur.tokens < PASSAGE_MIN_TOKENS ? max : target)) flush();
		if (cur) {
			cur.end = b.end;
			cur.tokens += tokens;
			cur.body = true;
		} else cur = { start: b.start, end: b.end, headingPath: b.headingPath, tokens, body: true };
	}
	flush();
	// Huge blocks are pushed straight after a heading-only passage: fold that heading into the first piece.
	const merged: Passage[] = [];
	sinceYield = 0;
	for (const p of out) {
		const prev = merged[merged.length - 1];
		if (prev && prev.end === p.start && prev.headingPath === p.headingPath && prev.end - prev.start < 400 && roughTokens(text, prev.start, prev.end) < 20 && firstNonSpace(text, prev.start, prev.end) === 0x23 && roughTokens(text, p.start, p.end) < max) {
			prev.end = p.end;
		} else merged.push({ ...p });
		sinceYield += p.end - p.start;
		if (sinceYield >= CUT_STEP_CHARS) {
			sinceYield = 0;
			yield;
		}
	}
	return merged;
}
