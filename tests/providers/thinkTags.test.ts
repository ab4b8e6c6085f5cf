// `<think>…</think>` in the answer text of local reasoning models: parsed out at any chunk split.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ThinkTagSplitter } from "../../src/providers/thinkTags";

/** Runs `chunks` through a splitter, as a listener would see them (a retract drops the text so far). */
function split(chunks: readonly string[], opts: { serverThinksAfter?: number } = {}) {
	let text = "";
	let thinking = "";
	let retracts = 0;
	const splitter = new ThinkTagSplitter({
		text: (d) => (text += d),
		thinking: (d) => (thinking += d),
		retract: () => {
			retracts++;
			text = "";
		},
	});
	chunks.forEach((chunk, i) => {
		if (opts.serverThinksAfter === i) splitter.serverThinks();
		splitter.push(chunk);
	});
	splitter.end();
	return { text, thinking, retracts };
}

/** `text` cut at the given points (any split, including inside a tag or a surrogate pair's neighbours). */
function cut(text: string, points: readonly number[]): string[] {
	const at = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
	const out: string[] = [];
	let start = 0;
	for (const p of at) {
		out.push(text.slice(start, p));
		start = p;
	}
	out.push(text.slice(start));
	return out;
}

// Text made of the characters tags are made of, so tag-like fragments come up often.
const tagAlphabet = fc.constantFrom("<", ">", "/", "t", "h", "i", "n", "k", " ", "\n", "a", "B", "é", "`", "<think>", "</think>", "<thinking>");
const tagText = (maxLength = 12) => fc.array(tagAlphabet, { maxLength }).map((parts) => parts.join(""));
const cuts = fc.array(fc.nat({ max: 200 }), { maxLength: 12 });
const whitespace = fc.constantFrom("", " ", "\n", "\n\n", " \t\n");
const hasTag = (s: string) => s.includes("<think>") || s.includes("</think>");

describe("<think> in the answer text, any chunking", () => {
	it("an answer that opens with <think>X</think>Y is thinking X and answer Y, wherever the chunks split", () => {
		fc.assert(
			fc.property(whitespace, tagText(), tagText(), cuts, (lead, x, y, points) => {
				fc.pre(!x.includes("</think>"));
				const { text, thinking, retracts } = split(cut(`${lead}<think>${x}</think>${y}`, points));
				expect(thinking).toBe(x.trim());
				expect(text).toBe(y.trimStart());
				expect(retracts).toBe(0);
			}),
			{ numRuns: 500 },
		);
	});

	it("an answer that starts inside the thinking (X</think>Y: the template opened the tag) is thinking X and answer Y", () => {
		fc.assert(
			fc.property(tagText(), tagText(), cuts, (x, y, points) => {
				// X is thinking a model emitted: no tags of its own, no code around the close tag.
				fc.pre(!hasTag(x) && !x.trimStart().startsWith("<think>") && !x.includes("`"));
				const { text, thinking } = split(cut(`${x}</think>${y}`, points));
				expect(thinking).toBe(x.trim());
				expect(text).toBe(y.trimStart());
			}),
			{ numRuns: 500 },
		);
	});

	it("text streamed before the </think> is retracted once, then comes back as thinking", () => {
		const { text, thinking, retracts } = split(["Okay, the user wants", " a haiku.\n</th", "ink>\n\nAn old pond"]);
		expect(retracts).toBe(1);
		expect(thinking).toBe("Okay, the user wants a haiku.");
		expect(text).toBe("An old pond");
	});

	it("a <think> later in an answer stays in the answer as written", () => {
		fc.assert(
			fc.property(fc.string({ minLength: 1, maxLength: 10 }), tagText(), cuts, (y, rest, points) => {
				fc.pre(y.trim() !== "" && !"<think>".startsWith(y.trimStart().slice(0, 7)) && !y.includes("</think>"));
				const answer = `${y} <think>${rest}`;
				const { text, thinking, retracts } = split(cut(answer, points));
				expect(text).toBe(answer);
				expect(thinking).toBe("");
				expect(retracts).toBe(0);
			}),
			{ numRuns: 300 },
		);
	});

	it("<thinking> and other look-alikes stay in the answer as written", () => {
		fc.assert(
			fc.property(fc.constantFrom("<thinking>", "<think >", "<Think>", "<think/>", "<thinker>"), tagText(), tagText(), cuts, (tag, x, y, points) => {
				fc.pre(!hasTag(x) && !hasTag(y));
				const answer = `${tag}${x}</${tag.slice(1)}${y}`;
				const { text, thinking } = split(cut(answer, points));
				expect(text).toBe(answer);
				expect(thinking).toBe("");
			}),
			{ numRuns: 300 },
		);
	});

	it("a </think> written about (in code, or after a <think> in the text) stays in the answer", () => {
		for (const answer of [
			"Qwen ends its reasoning with `</think>` and then answers.",
			"Like this:\n\n```\n<reasoning>\n</think>\n```\n",
			"A pair looks like <think> … </think> in the raw text.",
		]) {
			for (let at = 0; at <= answer.length; at++) {
				const { text, thinking, retracts } = split([answer.slice(0, at), answer.slice(at)]);
				expect(text, `split at ${at}`).toBe(answer);
				expect(thinking).toBe("");
				expect(retracts).toBe(0);
			}
		}
	});

	it("only the first </think> counts: later tags are answer text", () => {
		expect(split(["<think>a</think>b</think>c<think>d"])).toMatchObject({ thinking: "a", text: "b</think>c<think>d" });
		expect(split(["a</think>b</think>c"])).toMatchObject({ thinking: "a", text: "b</think>c" });
	});

	it("a stream that ends inside the thinking is all thinking, and one that ends on a tag's first letters is text", () => {
		expect(split(["<think>still going</thi"])).toEqual({ thinking: "still going</thi", text: "", retracts: 0 });
		expect(split(["  <thi"])).toEqual({ thinking: "", text: "  <thi", retracts: 0 });
		expect(split(["\n"])).toEqual({ thinking: "", text: "\n", retracts: 0 });
	});

	it("once the server sends its own thinking, tags in the text are text", () => {
		expect(split(["", "Yes</think> no"], { serverThinksAfter: 1 })).toEqual({ thinking: "", text: "Yes</think> no", retracts: 0 });
		expect(split(["<think>x</think>y"], { serverThinksAfter: 0 })).toEqual({ thinking: "", text: "<think>x</think>y", retracts: 0 });
	});

	it("streams as it goes: nothing waits but a possible tag's first letters and trailing spaces", () => {
		const seen: string[] = [];
		const splitter = new ThinkTagSplitter({ text: (d) => seen.push(`text:${d}`), thinking: (d) => seen.push(`thinking:${d}`), retract: () => seen.push("retract") });
		splitter.push("<think>Let me");
		splitter.push(" see </thi");
		expect(seen).toEqual(["thinking:Let me", "thinking: see"]);
		splitter.push("nk> The answer");
		expect(seen).toEqual(["thinking:Let me", "thinking: see", "text:The answer"]);
		const plain: string[] = [];
		const other = new ThinkTagSplitter({ text: (d) => plain.push(d), thinking: () => undefined, retract: () => undefined });
		other.push("Hello");
		expect(plain).toEqual(["Hello"]);
	});
});
