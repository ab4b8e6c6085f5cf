// What the model is asked for an inline edit, and what is taken from its answer. The selection goes
// whole between markers the model is told to rewrite; the answer is the replacement text only. Models
// often wrap it in a code fence or repeat the markers anyway: those are taken off, nothing else.
// The note's own text never carries a marker: one that looks like one (a note about this plugin, or a
// note written to move the selection) has its angle brackets swapped for look-alikes, or, written as
// HTML character references (`&lt;selection/&gt;`, `&#60;`), put behind one more `&amp;`, so the
// model sees exactly one real marker of each kind; the selection's are put back in the answer. The
// person's own look-alikes are escaped in turn (`‹` → `&lsaquo;`), so each spelling comes back as it was.

export const EDIT_RULES = [
	"You edit a stretch of the person's note. Rewrite the text between <selection> and </selection> as the instruction says.",
	"Answer with the replacement text only: no explanation, no quotes, no code fence around it, no markers.",
	"Keep the note's Markdown, links ([[...]]), line breaks and language unless the instruction asks otherwise.",
	"When the selection is empty, write what the instruction asks for at that point of the note.",
	"The note around the selection comes as a source, with <selection/> where the selection is: use it for context, never rewrite it.",
].join("\n");

/** Where the selection is in the rest of the note, as the model sees it (EDIT_RULES says so). */
const SELECTION_MARK = "<selection/>";

/** What may stand between a marker's brackets: `selection`, `/selection`, `selection/`, in any case, with spaces. */
const INNER = String.raw`\s*\/?\s*selection\s*\/?\s*`;
/**
 * A bracket as an HTML character reference: named, decimal or hexadecimal, in any case, the semicolon
 * optional (as HTML reads them), behind any number of `&amp;`. Obsidian shows `&lt;` as `<`, and a
 * model that has read much HTML may decode it: `&lt;selection/&gt;` would be a marker to it. The
 * look-alikes `‹` and `›` (`&lsaquo;`, `&#8249;`, …) are brackets too: the person's own must not be
 * taken for a marker made harmless when the answer comes back.
 */
const LT_REF = String.raw`&(?:amp;)*(?:lt|#0*60|#x0*3c|lsaquo|#0*8249|#x0*2039);?`;
const GT_REF = String.raw`&(?:amp;)*(?:gt|#0*62|#x0*3e|rsaquo|#0*8250|#x0*203a);?`;
/** Any spelling of the markers in the person's text: brackets as characters, look-alikes or references. */
const MARKER_LIKE = new RegExp(String.raw`([<\u2039]|${LT_REF})(${INNER})([>\u203a]|${GT_REF})`, "gi");
/** The same made harmless, as the model sees it (`harmless` below): each bracket one step further from a real one. */
const NEUTRAL = new RegExp(String.raw`(\u2039|&lsaquo;|&amp;${LT_REF.slice(1)})(${INNER})(\u203a|&rsaquo;|&amp;${GT_REF.slice(1)})`, "gi");

/**
 * A bracket of a marker-like tag made harmless, one step at a time so each way of writing it has its
 * own (the way back is exact): `<` → `‹`, a look-alike `‹` → `&lsaquo;` (the same look-alike to a
 * model that decodes it), a reference → behind one more `&amp;` (decoded, it is text: `&lt;`).
 */
function harmless(bracket: string): string {
	switch (bracket) {
		case "<":
			return "\u2039";
		case ">":
			return "\u203a";
		case "\u2039":
			return "&lsaquo;";
		case "\u203a":
			return "&rsaquo;";
		default:
			return `&amp;${bracket.slice(1)}`;
	}
}

/** A bracket made harmless, as it was; undefined when `harmless` never writes it so (the model's own). */
function restored(bracket: string): string | undefined {
	switch (bracket) {
		case "\u2039":
			return "<";
		case "\u203a":
			return ">";
		case "&lsaquo;":
			return "\u2039";
		case "&rsaquo;":
			return "\u203a";
		default:
			return bracket.startsWith("&amp;") ? `&${bracket.slice(5)}` : undefined;
	}
}

/** `text` with every marker-like tag made harmless (reads the same to a person, is no marker to the model). */
export function neutralMarkers(text: string): string {
	return text.replace(MARKER_LIKE, (_m, open: string, inner: string, close: string) => `${harmless(open)}${inner}${harmless(close)}`);
}

/** `neutralMarkers` undone: the tags it made harmless, byte for byte as they were. */
export function restoredMarkers(text: string): string {
	return text.replace(NEUTRAL, (m, open: string, inner: string, close: string) => {
		const [before, after] = [restored(open), restored(close)];
		return before === undefined || after === undefined ? m : `${before}${inner}${after}`;
	});
}

/** The user message of an edit: the instruction, then the selection whole between its markers. */
export function editMessage(instruction: string, selection: string, path: string): string {
	return `Instruction: ${neutralMarkers(instruction.trim())}\n\nNote: ${neutralMarkers(path)}\n\n<selection>\n${neutralMarkers(selection)}\n</selection>`;
}

/** The rest of the note, the one real place mark where the selection `[from, to)` is. */
export function noteAround(text: string, from: number, to: number): string {
	return `${neutralMarkers(text.slice(0, from))}${SELECTION_MARK}${neutralMarkers(text.slice(to))}`;
}

/**
 * The replacement in a model's answer: a fence or the selection markers around the whole answer are
 * taken off; the selection's own final line break is kept as the selection had it.
 */
export function proposalFrom(answer: string, selection: string): string {
	let text = answer.replace(/^\s*\n/, "");
	const fenced = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n?\1\s*$/.exec(text.trim());
	if (fenced && !selection.trimStart().startsWith(fenced[1] ?? "```")) text = fenced[2] ?? "";
	const marked = /^\s*<selection>\n?([\s\S]*?)\n?<\/selection>\s*$/.exec(text);
	if (marked) text = marked[1] ?? "";
	const endsWithBreak = selection.endsWith("\n");
	text = text.replace(/\s+$/, (ws) => (ws.includes("\n") && endsWithBreak ? "\n" : ws.replace(/\n/g, "")));
	if (endsWithBreak && !text.endsWith("\n") && text !== "") text += "\n";
	// The selection's own marker-like text was sent harmless: it comes back as the selection had it.
	if (neutralMarkers(selection) !== selection) text = restoredMarkers(text);
	return text;
}
