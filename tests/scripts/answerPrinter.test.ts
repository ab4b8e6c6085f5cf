// The terminal chat's answer with tool lines in between: every tool line starts a line of its own,
// and the answer's text after it starts again behind the prefix.
import { describe, expect, it } from "vitest";
import { ANSWER_PREFIX, AnswerPrinter } from "../../scripts/answerPrinter";

function printer(canErase = false): { p: AnswerPrinter; out: () => string } {
	let out = "";
	const p = new AnswerPrinter((s) => void (out += s), () => 0, canErase);
	return { p, out: () => out };
}

describe("the terminal chat's answer printer", () => {
	it("ends the answer's line before a tool line, and prefixes the text that follows", () => {
		const { p, out } = printer();
		p.begin();
		p.text("Looking it up.");
		p.line("  [tool] search_notes done: 2 passages");
		p.line("  [tool] read_note done: Plan.md");
		p.text("It ships in May.");
		p.close();
		expect(out()).toBe(`${ANSWER_PREFIX}Looking it up.\n  [tool] search_notes done: 2 passages\n  [tool] read_note done: Plan.md\n${ANSWER_PREFIX}It ships in May.\n`);
	});

	it("on a terminal, takes back a prefix nothing was written after; piped, ends its line", () => {
		const tty = printer(true);
		tty.p.begin();
		tty.p.line("  [tool] read_note done");
		expect(tty.out()).toBe(`${ANSWER_PREFIX}\r\x1b[K  [tool] read_note done\n`);
		const piped = printer(false);
		piped.p.begin();
		piped.p.line("  [tool] read_note done");
		expect(piped.out()).toBe(`${ANSWER_PREFIX}\n  [tool] read_note done\n`);
	});

	it("says when shown text was the model's thinking, and starts the answer again", () => {
		const { p, out } = printer();
		p.begin();
		p.text("Hmm");
		p.retracted();
		p.text("Yes.");
		p.close();
		expect(out()).toBe(`${ANSWER_PREFIX}Hmm\n(that was the model's thinking)\n${ANSWER_PREFIX}Yes.\n`);
	});
});
