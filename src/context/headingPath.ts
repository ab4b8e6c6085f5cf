// A passage cut at a heading starts with that heading's own line ("## Day 45"), and its heading path
// ends with the same heading ("# Harbour log > ## Day 45"). Shown one above the other, the heading
// reads twice: the path above a passage leaves out the heading the passage itself opens with. Used
// where the model reads excerpts (excerpts.ts) and where the person sees the passages sent
// (the panel's sources line).

/** Between the headings of a path (passages.ts writes them so). */
export const PATH_SEPARATOR = " > ";

/** The heading path to show above a passage whose text is `passage` ("" when nothing is left). */
export function shownHeadingPath(headingPath: string, passage: string): string {
	if (headingPath === "") return "";
	const firstLine = passage.replace(/^\s+/, "").split("\n", 1)[0]?.trim() ?? "";
	// Only a heading line counts: "Alpha is the first note." does not repeat the heading "Alpha".
	if (!/^#{1,6}\s/.test(firstLine)) return headingPath;
	const parts = headingPath.split(PATH_SEPARATOR);
	const last = parts[parts.length - 1]?.trim();
	if (last !== firstLine) return headingPath;
	return parts.slice(0, -1).join(PATH_SEPARATOR);
}
