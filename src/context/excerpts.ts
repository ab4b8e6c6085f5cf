// How chosen passages of a note are written out for the model: in document order, the heading
// path above a passage when it changes, "[…]" over every gap. A passage cut short (the top-up's
// last piece, excerptTopUp.ts) is followed by a gap mark too: the rest of it was left out.

import { PATH_SEPARATOR, shownHeadingPath } from "./headingPath";

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

/** The line written above a passage to say where it is ("" when nothing is left to say): see headingPath.ts. */
export function headingLine(text: string, p: Piece): string {
	return shownHeadingPath(p.headingPath, text.slice(p.start, Math.min(p.end, p.start + 400)));
}

/** The excerpts as sent: document order, heading path when it changes, "[…]" over every gap. */
export function renderExcerpts(text: string, pieces: readonly Piece[], passageCount: number): string {
	const sorted = [...pieces].sort((a, b) => a.start - b.start);
	const parts: string[] = [];
	let lastIndex = -1;
	let lastCut = false;
	let lastPath = "";
	for (const p of sorted) {
		const gap = p.index !== lastIndex + 1 || lastCut;
		if (gap) parts.push(GAP);
		// Right after its parent section's passage, the parent path is what the reader just read.
		const line = headingLine(text, p);
		if (line !== "" && line !== lastPath && (gap || !lastPath.startsWith(`${line}${PATH_SEPARATOR}`))) parts.push(line);
		parts.push(pieceText(text, p));
		lastIndex = p.index;
		lastCut = p.cut === true;
		lastPath = p.headingPath;
	}
	if (sorted.length > 0 && (lastIndex !== passageCount - 1 || lastCut)) parts.push(GAP);
	return parts.join(JOIN);
}
