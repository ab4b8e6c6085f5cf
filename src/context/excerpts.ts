// How chosen passages of a note are written out for the model: in document order, the heading
// path above a passage when it changes, "[…]" over every gap. A passage cut short (the top-up's
// last piece, excerptTopUp.ts) is followed by a gap mark too: the rest of it was left out.

export const GAP = "[…]";
export const JOIN = "\n\n";

export interface Piece {
	/** The passage's index in the note. */
	index: number;
	start: number;
	/** The passage's end, or earlier when only its start is sent (`cut`). */
	end: number;
	headingPath: string;
	/** Only the start of the passage is sent. */
	cut?: boolean;
}

export function pieceText(text: string, p: Piece): string {
	return text.slice(p.start, p.end).replace(/\s+$/, "");
}

/** A passage opening with its only heading needs no path line above it. */
export function startsWithOwnHeading(text: string, p: Piece): boolean {
	return !p.headingPath.includes(" > ") && text.startsWith(p.headingPath, p.start);
}

/** The excerpts as sent: document order, heading path when it changes, "[…]" over every gap. */
export function renderExcerpts(text: string, pieces: readonly Piece[], passageCount: number): string {
	const sorted = [...pieces].sort((a, b) => a.start - b.start);
	const parts: string[] = [];
	let lastIndex = -1;
	let lastCut = false;
	let lastPath = "";
	for (const p of sorted) {
		if (p.index !== lastIndex + 1 || lastCut) parts.push(GAP);
		if (p.headingPath !== "" && p.headingPath !== lastPath && !startsWithOwnHeading(text, p)) parts.push(p.headingPath);
		parts.push(pieceText(text, p));
		lastIndex = p.index;
		lastCut = p.cut === true;
		lastPath = p.headingPath;
	}
	if (sorted.length > 0 && (lastIndex !== passageCount - 1 || lastCut)) parts.push(GAP);
	return parts.join(JOIN);
}
