// A chat's title and list preview come from its text: a first line, flattened and shortened.

import type { ChatMessage } from "../core/types";

export const DEFAULT_TITLE = "New chat";
const TITLE_MAX = 60;

/** Collapses whitespace to single spaces and shortens to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
	// Work on a prefix: this runs on every append, and a message can be a pasted book. The prefix
	// is long enough unless it is mostly whitespace, in which case the whole text is used.
	const head = text.trimStart().slice(0, max * 4);
	let flat = head.replace(/\s+/g, " ").trim();
	if (flat.length <= max && head.length < text.trimStart().length) flat = text.replace(/\s+/g, " ").trim();
	if (flat.length <= max) return flat;
	let cut = flat.slice(0, max - 1);
	// Prefer a word boundary when one is near, and never split a surrogate pair.
	const space = cut.lastIndexOf(" ");
	if (space > max * 0.6) cut = cut.slice(0, space);
	if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
	return cut.trimEnd() + "…";
}

/** The first line of `text` that is not blank, or "". */
function firstLine(text: string): string {
	for (let start = 0; start < text.length; ) {
		const newline = text.indexOf("\n", start);
		const end = newline < 0 ? text.length : newline;
		const line = text.slice(start, end);
		if (line.trim() !== "") return line;
		start = end + 1;
	}
	return "";
}

/** The title a session gets from its first user message: its first non-empty line. */
export function titleFromMessages(messages: readonly ChatMessage[]): string {
	const first = messages.find((m) => m.role === "user");
	const line = first === undefined ? "" : firstLine(first.content);
	return line === "" ? DEFAULT_TITLE : oneLine(line, TITLE_MAX);
}
