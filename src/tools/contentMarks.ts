// What in a write's text another plugin may run: Templater commands (`<% … %>`, run when
// Templater's "trigger on new file creation" is on or the note is templated), DataviewJS (a
// ```dataviewjs block, or an inline `$= …` query: JavaScript, run when Dataview's JS queries are
// on) and `obsidian://` URIs (a click can run any plugin's command, e.g. Advanced URI). Such a
// write is marked in its permission card and asked every time: no standing rule approves it.
// Looked for in what the write puts into the note: every text argument of the call, and the part
// of the preview's after text that differs from before (so a command assembled from pieces, or an
// edit inside an existing block, is caught too). Over-marking only means one more question.
// Engine-safe: never imports 'obsidian'.
import type { ToolPreview } from "./types";

export type ContentMark = "templater" | "dataviewjs" | "obsidianUri";

/** In the order the card lists them. */
export const CONTENT_MARKS: readonly ContentMark[] = ["templater", "dataviewjs", "obsidianUri"];

interface Span {
	start: number;
	end: number;
}

/** Where each kind occurs in `text`; an unclosed command or block runs to the end. */
const FINDERS: Record<ContentMark, (text: string) => Span[]> = {
	templater: (text) => spans(text, /<%[\s\S]*?(?:%>|$(?![\s\S]))/g),
	dataviewjs: (text) => [
		// A fence of three or more backticks or tildes, opened with the dataviewjs language (any case), up to its closing fence.
		...spans(text, /^[ \t]*(`{3,}|~{3,})[ \t]*dataviewjs\b[\s\S]*?(?:^[ \t]*\1[ \t]*$|$(?![\s\S]))/gim),
		// Inline DataviewJS: `$= …`.
		...spans(text, /`[ \t]*\$=[^`]*`?/g),
	],
	obsidianUri: (text) => spans(text, /obsidian:\/\/\S*/gi),
};

function spans(text: string, re: RegExp): Span[] {
	const out: Span[] = [];
	for (const m of text.matchAll(re)) out.push({ start: m.index, end: m.index + m[0].length });
	return out;
}

/** The kinds found anywhere in `text`. */
export function marksIn(text: string): ContentMark[] {
	return CONTENT_MARKS.filter((kind) => FINDERS[kind](text).length > 0);
}

/** The changed stretch of `after` against `before`: between their common prefix and common suffix. */
function changedRegion(before: string, after: string): Span {
	let start = 0;
	const max = Math.min(before.length, after.length);
	while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
	let tail = 0;
	while (tail < max - start && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
	return { start, end: after.length - tail };
}

/** The kinds whose occurrence in `after` the change from `before` touches (a deletion touches what surrounds it). */
export function changedMarks(before: string, after: string): ContentMark[] {
	if (before === after) return [];
	const region = changedRegion(before, after);
	return CONTENT_MARKS.filter((kind) => FINDERS[kind](after).some((s) => s.start <= region.end && s.end >= region.start));
}

/** What a write call would put into a note that another plugin may run: from its arguments and its preview. */
export function writeMarks(args: Record<string, unknown>, preview?: Pick<ToolPreview, "before" | "after">): ContentMark[] {
	const found = new Set<ContentMark>();
	const visit = (value: unknown, depth: number): void => {
		if (typeof value === "string") for (const m of marksIn(value)) found.add(m);
		else if (depth < 4 && typeof value === "object" && value !== null) for (const v of Object.values(value)) visit(v, depth + 1);
	};
	visit(args, 0);
	if (preview) for (const m of changedMarks(preview.before, preview.after)) found.add(m);
	return CONTENT_MARKS.filter((m) => found.has(m));
}
