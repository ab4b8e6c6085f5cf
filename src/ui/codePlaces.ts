// Where Markdown from a model holds code that other plugins act on. Obsidian's MarkdownRenderer.render
// hands every fenced block whose language a plugin registered (`dataviewjs`, `dataview`, `tasks`…) to
// that plugin's code block processor, and every rendered element to every post-processor: Dataview's
// reads inline code starting with `=` or `$=` as a query (`$=` runs JavaScript). So the text that
// reaches the renderer holds neither: each fence's info string and each inline code span's content
// is replaced by a marker (safeMarkdown.ts), so blocks render with a language no plugin registers and
// spans render as code holding only marker characters; both are restored once the render is done.
//
// Found on purpose more often than any parser would: every line that looks like a fence opener (in a
// quote, a list, indented) has its info string taken, whatever the context; a code span is paired as
// CommonMark pairs backtick runs, and any `=` or `$=` just after a backtick run is taken besides, in
// case the renderer pairs differently. Text taken in error is put back as it was.

/** A fence line, in a container or not: the marker, then the info string. */
const FENCE_LINE = /^([ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*(?:`{3,}|~{3,})[ \t]*)(.*)$/gm;

/** Mermaid diagrams are Obsidian's own (not a plugin's) and stay diagrams. */
const OBSIDIAN_OWN = /^mermaid$/i;

export interface CodePlace {
	kind: "info" | "inline";
	start: number;
	end: number;
}

export function findCodePlaces(md: string): CodePlace[] {
	const places: CodePlace[] = [];
	const fenceLines: [number, number][] = [];
	for (const m of md.matchAll(FENCE_LINE)) {
		fenceLines.push([m.index, m.index + m[0].length]);
		// A block's code starting with `=` or `$=` reads as a query to a post-processor that scans every code element.
		const next = m.index + m[0].length + 1;
		const query = /^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*(\$?=)/.exec(md.slice(next, next + 64));
		if (query) places.push({ kind: "inline", start: next + query[0].length - query[1]!.length, end: next + query[0].length });
		const info = (m[2] ?? "").replace(/\s+$/, "");
		// Up to the first sign a guard may own (a tag's `<`, an image's `!`): the language starts here
		// either way, and with the marker in front of it no language any plugin registered can match.
		const word = /^[^\s`<>&![\]\\()"']*/.exec(info)?.[0] ?? "";
		if (info === "" || OBSIDIAN_OWN.test(word)) continue;
		// The language (the info string's first word) is what a processor matches: only it is taken,
		// so a remote image later in the info string stays the guard's to replace.
		const start = m.index + (m[1] ?? "").length;
		if (word !== "") places.push({ kind: "info", start, end: start + word.length });
	}
	// Code spans, between fence lines (a span never crosses one).
	let from = 0;
	for (const [fs, fe] of [...fenceLines, [md.length, md.length] as [number, number]]) {
		spans(md, from, fs, places);
		// The fence line itself: only its `=` after a run (it may be read as a paragraph).
		if (fe > fs) queriesAfterRuns(md, fs, fe, [], places);
		from = fe;
	}
	return places.sort((a, b) => a.start - b.start);
}

/** Every backtick run in md[from, to), escaped or not. */
function allRuns(md: string, from: number, to: number): [number, number][] {
	const runs: [number, number][] = [];
	const re = /`+/g;
	re.lastIndex = from;
	for (let m = re.exec(md); m && m.index < to; m = re.exec(md)) runs.push([m.index, Math.min(m.index + m[0].length, to)]);
	return runs;
}

function spans(md: string, from: number, to: number, places: CodePlace[]): void {
	const runs: [number, number][] = [];
	const re = /`+/g;
	re.lastIndex = from;
	for (let m = re.exec(md); m && m.index < to; m = re.exec(md)) {
		let start = m.index;
		let length = m[0].length;
		// An escaped backtick is text: the run starts after it.
		const slashes = /\\*$/.exec(md.slice(Math.max(from, start - 16), start))?.[0].length ?? 0;
		if (slashes % 2 === 1) {
			start++;
			length--;
		}
		if (length > 0) runs.push([start, Math.min(start + length, to)]);
	}
	const taken: [number, number][] = [];
	for (let i = 0; i < runs.length; i++) {
		const [os, oe] = runs[i]!;
		const close = runs.findIndex((r, j) => j > i && r[1] - r[0] === oe - os);
		if (close < 0) continue;
		const [cs] = runs[close]!;
		if (cs > oe) {
			places.push({ kind: "inline", start: oe, end: cs });
			taken.push([oe, cs]);
		}
		i = close;
	}
	// Not only outside the spans found: a span may be dropped later (it overlaps a remote image).
	queriesAfterRuns(md, from, to, [], places);
}

/** `=` or `$=` just after any backtick run, wherever a parser might start a span there. */
function queriesAfterRuns(md: string, from: number, to: number, taken: [number, number][], places: CodePlace[]): void {
	for (const [, end] of allRuns(md, from, to)) {
		const m = /^[ \t]*(\$?=)/.exec(md.slice(end, Math.min(to, end + 8)));
		if (!m) continue;
		const at = end + m[0].length - m[1]!.length;
		if (!taken.some(([s, e]) => at >= s && at < e)) places.push({ kind: "inline", start: at, end: at + m[1]!.length });
	}
}
