// A unified line diff for write previews, hand-written: about 80 lines instead of the npm `diff`
// package (jsdiff 8 unpacks to several hundred kB, of which we would use one function). Common
// leading and trailing lines are set aside first (an edit touches one stretch of a note), then the
// changed middle is aligned by longest common subsequence when it is small enough, else shown as
// one block removed and added. Either way the output applies: it is a correct diff, if not always
// the shortest for large rewrites.
// Linear in the texts' length: lines are compared as numbers (each distinct line hashed once), the
// alignment is bounded by LCS_CELLS whatever the lines' length, and hunks number their lines as
// they go.

const CONTEXT = 3;
/** Beyond this many cells (lines × lines) the middle is shown as one replaced block. */
const LCS_CELLS = 250_000;

type Op = { kind: " " | "-" | "+"; line: string };

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

function alignMiddle(a: string[], b: string[]): Op[] {
	if (a.length * b.length > LCS_CELLS) return [...a.map((line) => ({ kind: "-" as const, line })), ...b.map((line) => ({ kind: "+" as const, line }))];
	const [x, y] = lineIds(a, b);
	const w = b.length + 1;
	const lcs = new Uint32Array((a.length + 1) * w);
	diffWork.cells += a.length * b.length;
	for (let i = a.length - 1; i >= 0; i--) {
		for (let j = b.length - 1; j >= 0; j--) {
			lcs[i * w + j] = x[i] === y[j] ? (lcs[(i + 1) * w + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * w + j] ?? 0, lcs[i * w + j + 1] ?? 0);
		}
	}
	const ops: Op[] = [];
	let i = 0;
	let j = 0;
	while (i < a.length || j < b.length) {
		if (i < a.length && j < b.length && x[i] === y[j]) {
			ops.push({ kind: " ", line: a[i] ?? "" });
			i++;
			j++;
		} else if (i < a.length && (j === b.length || (lcs[(i + 1) * w + j] ?? 0) >= (lcs[i * w + j + 1] ?? 0))) ops.push({ kind: "-", line: a[i++] ?? "" });
		else ops.push({ kind: "+", line: b[j++] ?? "" });
	}
	return ops;
}

/** "--- a/path\n+++ b/path\n@@ -l,n +l,n @@\n…" ; "" when nothing changed. */
export function unifiedDiff(before: string, after: string, path: string): string {
	if (before === after) return "";
	const a = splitLines(before);
	const b = splitLines(after);
	let head = 0;
	while (head < a.length && head < b.length && a[head] === b[head]) head++;
	let tail = 0;
	while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
	const ops: Op[] = [
		...a.slice(0, head).map((line) => ({ kind: " " as const, line })),
		...alignMiddle(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
		...a.slice(a.length - tail).map((line) => ({ kind: " " as const, line })),
	];
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
