// "Did you mean": when edit_note's passage is not in the note, the lines most like it, so the model
// can retry with the note's real text. Similarity is the Dice coefficient over character bigrams of
// whitespace-collapsed, lowercased lines: cheap (linear in the note), forgiving of small typos,
// changed punctuation and re-wrapped spaces, and indifferent to the script (CJK works as well).

function bigrams(text: string): Map<string, number> {
	const s = text.toLowerCase().replace(/\s+/g, " ").trim();
	const out = new Map<string, number>();
	for (let i = 0; i < s.length - 1; i++) {
		const g = s.slice(i, i + 2);
		out.set(g, (out.get(g) ?? 0) + 1);
	}
	if (s.length === 1) out.set(s, 1);
	return out;
}

export function similarity(a: string, b: string): number {
	const x = bigrams(a);
	const y = bigrams(b);
	let total = 0;
	let shared = 0;
	for (const n of x.values()) total += n;
	for (const [g, n] of y) {
		total += n;
		shared += Math.min(n, x.get(g) ?? 0);
	}
	return total === 0 ? 0 : (2 * shared) / total;
}

export interface NearLine {
	/** 1-based. */
	line: number;
	text: string;
	score: number;
}

/**
 * The note's lines most like the first non-blank line of `wanted`, best first (at most `limit`,
 * only those at least a little alike). Windows as tall as `wanted` are compared, so a multi-line
 * passage is matched against multi-line stretches.
 */
export function nearestLines(note: string, wanted: string, limit = 3): NearLine[] {
	const lines = note.split("\n");
	const wantedLines = wanted.split("\n").filter((l) => l.trim() !== "");
	const height = Math.max(1, Math.min(wantedLines.length, 5));
	const target = wantedLines.slice(0, height).join("\n");
	if (target.trim() === "") return [];
	const scored: NearLine[] = [];
	for (let i = 0; i < lines.length; i++) {
		if ((lines[i] ?? "").trim() === "") continue;
		const text = lines.slice(i, i + height).join("\n");
		scored.push({ line: i + 1, text, score: similarity(target, text) });
	}
	scored.sort((a, b) => b.score - a.score || a.line - b.line);
	return scored.filter((s) => s.score >= 0.3).slice(0, limit);
}
