// A unified line diff for write previews, hand-written: about 80 lines instead of the npm `diff`
// package (jsdiff 8 unpacks to several hundred kB, of which we would use one function). Common
// leading and trailing lines are set aside first (an edit touches one stretch of a note), then the
// changed middle is aligned by longest common subsequence when it is small enough, else cut at
// lines found once on each side (as patience diff does) and its pieces aligned the same way, a piece
// still too large shown as one block removed and added. Either way the output applies: it is a correct diff, if not always
// the shortest for large rewrites.
// Linear in the texts' length: lines are compared as numbers (each distinct line hashed once), the
// alignment is bounded by LCS_CELLS whatever the lines' length, and hunks number their lines as
// they go.

const CONTEXT = 3;
/** Beyond this many cells (lines × lines) a piece of the middle is cut at anchors, or shown as one replaced block: at most about 250 × (lines in both) cells in all. */
const LCS_CELLS = 250_000;

/** One line (or, for word-level detail, one token) of a diff: kept, removed or added. */
export type Op = { kind: " " | "-" | "+"; line: string };

function splitLines(text: string): string[] {
	if (text === "") return [];
	const lines = text.split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	return lines;
}

/** Work done by the last diffs (tests check it stays linear): characters of lines hashed, alignment cells filled. */
export const diffWork = { chars: 0, cells: 0 };

/** Each line as a number, equal lines equal numbers: comparing two long lines is then one step, not their length. */
function lineIds(a: readonly string[], b: readonly string[]): [Int32Array, Int32Array] {
	const ids = new Map<string, number>();
	const of = (lines: readonly string[]): Int32Array => {
		const out = new Int32Array(lines.length);
		lines.forEach((line, k) => {
			diffWork.chars += line.length;
			let id = ids.get(line);
			if (id === undefined) {
				id = ids.size;
				ids.set(line, id);
			}
			out[k] = id;
		});
		return out;
	};
	return [of(a), of(b)];
}

/** How many times a middle too large for LCS is cut at anchors before its pieces go as blocks. */
const ANCHOR_DEPTH = 4;

function alignMiddle(a: string[], b: string[]): Op[] {
	if (a.length === 0 || b.length === 0) return block(a, b, 0, a.length, 0, b.length, []);
	const [x, y] = lineIds(a, b);
	const ops: Op[] = [];
	alignRange(a, b, x, y, 0, a.length, 0, b.length, ANCHOR_DEPTH, ops);
	return ops;
}

function block(a: readonly string[], b: readonly string[], i0: number, i1: number, j0: number, j1: number, ops: Op[]): Op[] {
	for (let i = i0; i < i1; i++) ops.push({ kind: "-", line: a[i] ?? "" });
	for (let j = j0; j < j1; j++) ops.push({ kind: "+", line: b[j] ?? "" });
	return ops;
}

/**
 * Aligns a[i0, i1) with b[j0, j1): common ends set aside, then LCS when the cells are few enough.
 * A larger middle is cut at anchors, lines that occur once on each side (in increasing order on
 * both, the longest such chain, as patience diff does), and each piece between two anchors is
 * aligned the same way; a piece still too large, or without anchors, is one removed and added block.
 * Each level reads its range once (plus a sort of its anchors), so scattered edits through a long
 * note stay separate hunks at about linear cost.
 */
function alignRange(a: readonly string[], b: readonly string[], x: Int32Array, y: Int32Array, i0: number, i1: number, j0: number, j1: number, depth: number, ops: Op[]): void {
	let head = 0;
	while (i0 + head < i1 && j0 + head < j1 && x[i0 + head] === y[j0 + head]) ops.push({ kind: " ", line: a[i0 + head++] ?? "" });
	i0 += head;
	j0 += head;
	let tail = 0;
	while (i1 - tail > i0 && j1 - tail > j0 && x[i1 - 1 - tail] === y[j1 - 1 - tail]) tail++;
	const n = i1 - tail - i0;
	const m = j1 - tail - j0;
	if (n * m <= LCS_CELLS) lcsAlign(a, b, x, y, i0, i0 + n, j0, j0 + m, ops);
	else {
		const anchors = depth > 0 ? uniqueAnchors(x, y, i0, i0 + n, j0, j0 + m) : [];
		if (anchors.length === 0) block(a, b, i0, i0 + n, j0, j0 + m, ops);
		else {
			let i = i0;
			let j = j0;
			for (const [ai, aj] of anchors) {
				alignRange(a, b, x, y, i, ai, j, aj, depth - 1, ops);
				ops.push({ kind: " ", line: a[ai] ?? "" });
				i = ai + 1;
				j = aj + 1;
			}
			alignRange(a, b, x, y, i, i0 + n, j, j0 + m, depth - 1, ops);
		}
	}
	for (let t = tail; t > 0; t--) ops.push({ kind: " ", line: a[i1 - t] ?? "" });
}

/** Lines once in x[i0,i1) and once in y[j0,j1), as [i, j] pairs: the longest chain increasing on both sides. */
function uniqueAnchors(x: Int32Array, y: Int32Array, i0: number, i1: number, j0: number, j1: number): [number, number][] {
	const count = new Map<number, number>();
	const at = new Map<number, number>();
	for (let i = i0; i < i1; i++) count.set(x[i] ?? -1, (count.get(x[i] ?? -1) ?? 0) + 1);
	for (let j = j0; j < j1; j++) {
		const id = y[j] ?? -1;
		const c = count.get(id);
		if (c === undefined) continue;
		// Negative counts: seen in y (once: -1; more: -2).
		if (c === 1) {
			count.set(id, -1);
			at.set(id, j);
		} else if (c === -1) {
			count.set(id, -2);
			at.delete(id);
		}
	}
	const pairs: [number, number][] = [];
	for (let i = i0; i < i1; i++) {
		const j = at.get(x[i] ?? -1);
		if (j !== undefined && count.get(x[i] ?? -1) === -1) pairs.push([i, j]);
	}
	// Longest increasing subsequence of the j's (pairs are in i order): patience sorting, n log n.
	const tails: number[] = [];
	const prev = new Int32Array(pairs.length).fill(-1);
	for (let k = 0; k < pairs.length; k++) {
		const j = (pairs[k] as [number, number])[1];
		let lo = 0;
		let hi = tails.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if ((pairs[tails[mid] ?? 0] as [number, number])[1] < j) lo = mid + 1;
			else hi = mid;
		}
		if (lo > 0) prev[k] = tails[lo - 1] ?? -1;
		tails[lo] = k;
	}
	const chain: [number, number][] = [];
	for (let k = tails[tails.length - 1] ?? -1; k >= 0; k = prev[k] ?? -1) chain.push(pairs[k] as [number, number]);
	return chain.reverse();
}

function lcsAlign(a: readonly string[], b: readonly string[], x: Int32Array, y: Int32Array, i0: number, i1: number, j0: number, j1: number, ops: Op[]): void {
	const n = i1 - i0;
	const m = j1 - j0;
	const w = m + 1;
	const lcs = new Uint32Array((n + 1) * w);
	diffWork.cells += n * m;
	for (let i = n - 1; i >= 0; i--) {
		for (let j = m - 1; j >= 0; j--) {
			lcs[i * w + j] = x[i0 + i] === y[j0 + j] ? (lcs[(i + 1) * w + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * w + j] ?? 0, lcs[i * w + j + 1] ?? 0);
		}
	}
	let i = 0;
	let j = 0;
	while (i < n || j < m) {
		if (i < n && j < m && x[i0 + i] === y[j0 + j]) {
			ops.push({ kind: " ", line: a[i0 + i] ?? "" });
			i++;
			j++;
		} else if (i < n && (j === m || (lcs[(i + 1) * w + j] ?? 0) >= (lcs[i * w + j + 1] ?? 0))) ops.push({ kind: "-", line: a[i0 + i++] ?? "" });
		else ops.push({ kind: "+", line: b[j0 + j++] ?? "" });
	}
}

/**
 * The diff of two sequences (lines, or the tokens of changed lines): common head and tail set aside,
 * the middle aligned by LCS when small enough, else one block removed and added. Shared by the write
 * previews (unifiedDiff) and the editor's hunks (src/editor/hunks.ts).
 */
export function diffSequences(a: readonly string[], b: readonly string[]): Op[] {
	let head = 0;
	while (head < a.length && head < b.length && a[head] === b[head]) head++;
	let tail = 0;
	while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
	return [
		...a.slice(0, head).map((line) => ({ kind: " " as const, line })),
		...alignMiddle(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
		...a.slice(a.length - tail).map((line) => ({ kind: " " as const, line })),
	];
}

/** "--- a/path\n+++ b/path\n@@ -l,n +l,n @@\n…" ; "" when nothing changed. */
export function unifiedDiff(before: string, after: string, path: string): string {
	if (before === after) return "";
	const ops = diffSequences(splitLines(before), splitLines(after));
	const out = [`--- ${before === "" ? "/dev/null" : `a/${path}`}`, `+++ b/${path}`];
	let k = 0;
	// Line numbers of ops[numbered], advanced as hunks go (not recounted from the top for each hunk).
	let numbered = 0;
	let oldLine = 1;
	let newLine = 1;
	while (k < ops.length) {
		while (k < ops.length && ops[k]?.kind === " ") k++;
		if (k >= ops.length) break;
		// A hunk: CONTEXT lines before the first change, through changes joined by short runs of context.
		let start = Math.max(0, k - CONTEXT);
		while (start > 0 && ops[start - 1]?.kind !== " ") start--;
		let end = k;
		for (;;) {
			while (end < ops.length && ops[end]?.kind !== " ") end++;
			let same = end;
			while (same < ops.length && ops[same]?.kind === " ") same++;
			if (same < ops.length && same - end <= CONTEXT * 2) end = same;
			else {
				end = Math.min(ops.length, end + CONTEXT);
				break;
			}
		}
		for (; numbered < start; numbered++) {
			if (ops[numbered]?.kind !== "+") oldLine++;
			if (ops[numbered]?.kind !== "-") newLine++;
		}
		const hunk = ops.slice(start, end);
		const oldCount = hunk.filter((o) => o.kind !== "+").length;
		const newCount = hunk.filter((o) => o.kind !== "-").length;
		out.push(`@@ -${oldCount === 0 ? oldLine - 1 : oldLine},${oldCount} +${newCount === 0 ? newLine - 1 : newLine},${newCount} @@`);
		for (const o of hunk) out.push(`${o.kind}${o.line}`);
		k = end;
	}
	return out.join("\n") + "\n";
}
