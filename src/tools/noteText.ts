// A note's exact text, and edits that keep every byte they do not change. The vault hands notes over
// as text decoded from UTF-8: a note saved in another encoding (Latin-1, Windows-1252) comes back
// with U+FFFD where its accented letters were, and writing that text back would destroy them all.
// So a write first reads the bytes and decodes them strictly: a note that is not valid UTF-8 is
// refused, and nothing is written. Notes with Windows line ends (CRLF) or a byte-order mark are
// edited through a view without either (what the model reads, and what headings and passages are
// found in); the edit is a splice of that view, mapped back onto the note's own text, so the BOM and
// every line end outside the splice stay as they were, and new lines take the note's line ends.
import { splitsPair } from "../core/surrogates";
import { ToolError } from "./paths";
import type { VaultAccess } from "./types";

export const BOM = "\uFEFF";

/** The change an edit makes to the view: `view.slice(from, to)` becomes `insert` (LF line ends: they become the note's). */
export interface Splice {
	from: number;
	to: number;
	insert: string;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function notUtf8(path: string): ToolError {
	return new ToolError(
		`${path} is not valid UTF-8 text (it may be saved in an older encoding such as Latin-1 or Windows-1252), so it was not changed: editing it would damage its accented letters and other characters. Tell the person, who can convert it to UTF-8 in a text editor; or put the new text in a new note with create_note.`,
	);
}

/** Bytes as text when they are valid UTF-8 (a BOM kept as U+FEFF); undefined when they are not. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
	try {
		return strictUtf8.decode(bytes);
	} catch {
		return undefined;
	}
}

/**
 * The note's exact text, from its bytes, with its BOM if it has one. Refused with a ToolError when
 * the bytes are not UTF-8. A vault that cannot hand over bytes gives its text, refused when it
 * holds U+FFFD (the mark of a failed decode: no edit can keep what it replaced).
 */
export async function exactNoteText(vault: VaultAccess, path: string): Promise<string> {
	if (vault.readBytes === undefined) {
		const text = await vault.read(path);
		if (text.includes("\uFFFD")) throw notUtf8(path);
		return text;
	}
	const text = decodeUtf8(await vault.readBytes(path));
	if (text === undefined) throw notUtf8(path);
	return text;
}

export function withoutBom(text: string): string {
	return text.startsWith(BOM) ? text.slice(1) : text;
}

/** The note as the model and the edits see it: no BOM, every CRLF a plain line end. */
export function noteView(text: string): string {
	const body = withoutBom(text);
	return body.includes("\r\n") ? body.replace(/\r\n/g, "\n") : body;
}

/** The line end the note uses where `at` is: its line's own end, else the last one before, else LF. */
function lineEndAt(text: string, at: number): string {
	let end = text.indexOf("\n", at);
	if (end < 0) end = text.lastIndexOf("\n", Math.max(0, at - 1));
	return end > 0 && text[end - 1] === "\r" ? "\r\n" : "\n";
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;


/**
 * `text` with the edit applied: the edit computes a splice of the view (noteView), which is made on
 * the note's own text. Only the spliced stretch changes: the BOM and the bytes around it stay, and
 * the inserted text takes the note's line ends there.
 */
export function spliceNote(text: string, edit: (view: string) => Splice, path: string): string {
	const bom = text.startsWith(BOM) ? 1 : 0;
	const view = noteView(text);
	const { from, to, insert } = edit(view);
	if (LONE_SURROGATE.test(insert)) throw new ToolError(`The new text for ${path} holds a broken character (half of a surrogate pair); send it again as plain text.`);
	if (splitsPair(view, from) || splitsPair(view, to)) throw new ToolError(`The passage to replace in ${path} begins or ends inside a character; include the whole character.`);
	// Where view offset `i` is in the note: past the BOM and the CR of every CRLF before it.
	let crlf = 0;
	let next = text.indexOf("\r\n", bom);
	const offsets: number[] = [];
	for (const i of [from, to]) {
		while (next >= 0 && next - bom - crlf < i) {
			crlf++;
			next = text.indexOf("\r\n", next + 2);
		}
		offsets.push(bom + i + crlf);
	}
	const [start, end] = offsets as [number, number];
	const eol = lineEndAt(text, start);
	return text.slice(0, start) + (eol === "\n" ? insert : insert.replace(/\n/g, eol)) + text.slice(end);
}

/**
 * A change as the person is shown it (the permission card's diff, the result's line counts): without
 * the BOM, and for a note with CRLF line ends, without their CRs. A note with LF line ends is shown
 * as it is, so a stray CR the change brings is not hidden from the person.
 */
export function shownChange(before: string, after: string): [string, string] {
	const crlf = before.includes("\r\n");
	const shown = (text: string): string => (crlf ? noteView(text) : withoutBom(text));
	return [shown(before), shown(after)];
}

/** Applies a splice to a view (for edits computed and shown without a note's own bytes). */
export function applySplice(view: string, s: Splice): string {
	return view.slice(0, s.from) + s.insert + view.slice(s.to);
}
