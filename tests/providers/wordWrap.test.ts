import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { charWidth, StreamingWordWrap } from "../../scripts/wordWrap";

function wrapped(pieces: readonly string[], width: number, startColumn = 0): string {
	let out = "";
	const wrap = new StreamingWordWrap((s) => (out += s), () => width, startColumn);
	for (const piece of pieces) wrap.push(piece);
	wrap.end();
	return out;
}

const columns = (line: string): number => [...line].reduce((n, ch) => n + charWidth(ch.codePointAt(0) ?? 0), 0);

/** Splits `text` at the given cut points: the pieces a stream might deliver. */
function cut(text: string, cuts: readonly number[]): string[] {
	const chars = [...text];
	const at = [...new Set(cuts.map((c) => c % (chars.length + 1)))].sort((a, b) => a - b);
	const pieces: string[] = [];
	let from = 0;
	for (const c of at) {
		pieces.push(chars.slice(from, c).join(""));
		from = c;
	}
	pieces.push(chars.slice(from).join(""));
	return pieces;
}

const word = fc.stringMatching(/^[a-zà-ÿ'.,]{1,12}$/);
const prose = fc.array(fc.tuple(word, fc.constantFrom(" ", " ", " ", "  ", "\n")), { minLength: 1, maxLength: 40 }).map((parts) => parts.map(([w, s]) => w + s).join(""));

describe("streamed answers wrap on word boundaries", () => {
	it("breaks a line between words, never inside one", () => {
		expect(wrapped(["The caf", "é opens on Sund", "ays at nine."], 16)).toBe("The café opens\non Sundays at\nnine.");
	});

	it("counts the prefix already on the first line", () => {
		expect(wrapped(["one two three"], 12, 8)).toBe("one\ntwo three");
	});

	it("keeps the answer's own line breaks and drops the spaces where it wraps", () => {
		expect(wrapped(["alpha beta\ngamma   delta epsilon"], 11)).toBe("alpha beta\ngamma\ndelta\nepsilon");
	});

	it("breaks a word longer than a line at the line's end, the only place it can", () => {
		expect(wrapped(["see https://example.com/a/very/long/path ok"], 10)).toBe("see\nhttps://ex\nample.com/\na/very/lon\ng/path ok");
	});

	it("breaks between wide (CJK) characters, which take two columns", () => {
		expect(wrapped(["日本語の文章です"], 6)).toBe("日本語\nの文章\nです");
	});

	it("passes text through untouched when there is no width (output is not a terminal)", () => {
		expect(wrapped(["a b ", "c"], 0)).toBe("a b c");
	});

	it("for any text and any way it is streamed: no line is too wide, no word is split, nothing else changes", () => {
		fc.assert(
			fc.property(prose, fc.array(fc.nat(), { maxLength: 12 }), fc.integer({ min: 12, max: 60 }), (text, cuts, width) => {
				const out = wrapped(cut(text, cuts), width);
				// The same however the text was cut into pieces.
				expect(out).toBe(wrapped([text], width));
				for (const line of out.split("\n")) expect(columns(line)).toBeLessThanOrEqual(width);
				// Words (all shorter than a line here) come out whole and in order.
				expect(out.split(/\s+/).filter(Boolean)).toEqual(text.split(/\s+/).filter(Boolean));
			}),
		);
	});
});
