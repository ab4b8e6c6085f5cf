// Finds the mention being typed at the caret: `@query` (after a space or at the start) or
// `[[query` (an unclosed link), so the suggester knows what to match and what to replace.

export interface Mention {
	/** Where the trigger (`@` or `[[`) starts. */
	start: number;
	/** The caret: the mention's text ends here. */
	end: number;
	query: string;
	trigger: "@" | "[[";
}

/** Longest query the suggester follows: past it the person is writing, not naming a note. */
const MAX_QUERY = 60;

export function findMention(text: string, caret: number): Mention | undefined {
	const before = text.slice(0, caret);
	const line = before.slice(before.lastIndexOf("\n") + 1);
	const lineStart = caret - line.length;
	const link = line.lastIndexOf("[[");
	if (link >= 0 && !line.slice(link).includes("]]")) {
		const query = line.slice(link + 2);
		if (query.length <= MAX_QUERY) return { start: lineStart + link, end: caret, query, trigger: "[[" };
	}
	const at = line.lastIndexOf("@");
	if (at < 0 || (at > 0 && !/\s/.test(line[at - 1] ?? ""))) return undefined;
	const query = line.slice(at + 1);
	// Two spaces in a row, or a long run, mean the mention has ended.
	if (query.length > MAX_QUERY || /\s{2}/.test(query) || /^\s/.test(query)) return undefined;
	return { start: lineStart + at, end: caret, query, trigger: "@" };
}
