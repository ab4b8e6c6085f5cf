// Word wrapping for text that arrives in pieces (a streamed answer), so the terminal never breaks a
// word in the middle when a line runs out. A word is held back until it ends (a space, a line break
// or the end of the answer): only then is it known whether it fits on the line.

/** Columns a code point takes in a terminal: 0 for combining marks, 2 for wide (CJK, emoji), else 1. */
export function charWidth(codePoint: number): number {
	if (codePoint < 0x300) return 1;
	if ((codePoint >= 0x300 && codePoint <= 0x36f) || (codePoint >= 0x200b && codePoint <= 0x200f) || (codePoint >= 0xfe00 && codePoint <= 0xfe0f)) return 0;
	if (isWide(codePoint)) return 2;
	return 1;
}

function isWide(c: number): boolean {
	return (
		(c >= 0x1100 && c <= 0x115f) ||
		(c >= 0x2e80 && c <= 0x303e) ||
		(c >= 0x3041 && c <= 0x33ff) ||
		(c >= 0x3400 && c <= 0x4dbf) ||
		(c >= 0x4e00 && c <= 0x9fff) ||
		(c >= 0xa000 && c <= 0xa4cf) ||
		(c >= 0xac00 && c <= 0xd7a3) ||
		(c >= 0xf900 && c <= 0xfaff) ||
		(c >= 0xfe30 && c <= 0xfe4f) ||
		(c >= 0xff00 && c <= 0xff60) ||
		(c >= 0xffe0 && c <= 0xffe6) ||
		(c >= 0x1f300 && c <= 0x1f64f) ||
		(c >= 0x1f900 && c <= 0x1faff) ||
		(c >= 0x20000 && c <= 0x3fffd)
	);
}

function textWidth(text: string): number {
	let width = 0;
	for (const ch of text) width += charWidth(ch.codePointAt(0) ?? 0);
	return width;
}

/**
 * Writes streamed text wrapped at `width()` columns on word boundaries. Wide characters (CJK) are
 * break opportunities of their own, as those scripts put no spaces between words. A word longer
 * than a whole line is broken at the line's end, the only place it can be.
 */
export class StreamingWordWrap {
	/** Columns already used on the current line. */
	private column: number;
	/** Spaces after the last word, written only if the next word stays on the same line. */
	private spaces = "";
	/** The word being received, not yet written. */
	private word = "";
	private wordWidth = 0;

	/**
	 * @param write where the wrapped text goes
	 * @param width the terminal's width now (it may change while an answer streams); 0 or less: no wrapping
	 * @param startColumn columns already used on the line the text starts on (a "discover> " prefix)
	 */
	constructor(
		private readonly write: (text: string) => void,
		private readonly width: () => number,
		startColumn = 0,
	) {
		this.column = startColumn;
	}

	push(text: string): void {
		if (this.width() <= 0) {
			this.write(text);
			return;
		}
		let out = "";
		for (const ch of text) {
			const code = ch.codePointAt(0) ?? 0;
			if (ch === "\n" || ch === "\r") {
				out += this.takeWord() + ch;
				this.column = 0;
				this.spaces = "";
			} else if (ch === " " || ch === "\t") {
				out += this.takeWord();
				this.spaces += ch === "\t" ? " " : ch;
			} else if (charWidth(code) === 2) {
				out += this.takeWord();
				this.word = ch;
				this.wordWidth = 2;
				out += this.takeWord();
			} else {
				this.word += ch;
				this.wordWidth += charWidth(code);
			}
		}
		if (out !== "") this.write(out);
	}

	/** Writes the word held back: the answer ended (or a line must start afresh). */
	end(): void {
		const out = this.takeWord();
		this.spaces = "";
		if (out !== "") this.write(out);
	}

	/** Forgets the position: something else was written that ended with a line starting at `column`. */
	restart(column = 0): void {
		this.end();
		this.column = column;
	}

	/** The held-back word with what must come before it: the spaces, or a line break. */
	private takeWord(): string {
		if (this.word === "") return "";
		const width = Math.max(1, this.width());
		let out: string;
		const gap = textWidth(this.spaces);
		if (this.column + gap + this.wordWidth <= width) {
			out = this.spaces + this.word;
			this.column += gap + this.wordWidth;
		} else {
			out = this.column > 0 ? "\n" : "";
			this.column = 0;
			out += this.breakLongWord(this.word, width);
		}
		this.spaces = "";
		this.word = "";
		this.wordWidth = 0;
		return out;
	}

	/** Writes `word` from the start of a line, breaking it where a line is full. */
	private breakLongWord(word: string, width: number): string {
		let out = "";
		for (const ch of word) {
			const w = charWidth(ch.codePointAt(0) ?? 0);
			if (this.column + w > width && this.column > 0) {
				out += "\n";
				this.column = 0;
			}
			out += ch;
			this.column += w;
		}
		return out;
	}
}
