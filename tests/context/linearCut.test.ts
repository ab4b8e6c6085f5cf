import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CUT_STEP_CHARS, cutPassages, cutPassagesSteps, nextBoundary, passageScan, SENTENCE_END } from "../../src/context/passages";

// Work counted in characters scanned by the cutter's size counts, not in time: a cut that rescans
// its piece after every hard cut (the quadratic one) scans hundreds of times the note.
function scannedBy(text: string): number {
	const before = passageScan.chars;
	cutPassages(text);
	return passageScan.chars - before;
}

const base64 = (n: number): string => {
	const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	let s = "";
	let x = 12345;
	while (s.length < n) {
		x = (x * 1103515245 + 12345) >>> 0;
		s += abc[x % 64];
	}
	return s;
};

describe("cutPassages is linear in the note's length", () => {
	const shapes: [string, (n: number) => string][] = [
		["one base64 line (a clipping's inline image)", (n) => `# Clipping\n\n![img](data:image/png;base64,${base64(n)})\n`],
		["CJK without punctuation", (n) => "漢字仮名交じり文".repeat(Math.ceil(n / 8)).slice(0, n)],
		["a single word", (n) => "a".repeat(n)],
		["minified JSON in a code block", (n) => `\`\`\`json\n${JSON.stringify(Array.from({ length: Math.ceil(n / 20) }, (_, i) => ({ k: i, v: "xy" })))}\n\`\`\`\n`],
		["a Markdown table", (n) => `| a | b |\n|---|---|\n${"| cell one | cell two |\n".repeat(Math.ceil(n / 22))}`],
	];
	for (const [name, make] of shapes) {
		it(`${name}: a few scans of the note, at 200 KB as at 400 KB`, () => {
			const small = make(200_000);
			const large = make(400_000);
			const perCharSmall = scannedBy(small) / small.length;
			const perCharLarge = scannedBy(large) / large.length;
			// About five passes (blocks, boundaries, hard cuts, what is left, the merge); the quadratic cut made 87 at 200 KB.
			expect(perCharSmall).toBeLessThan(8);
			expect(perCharLarge).toBeLessThan(8);
			// And no more per character when the note doubles.
			expect(perCharLarge).toBeLessThan(perCharSmall * 1.1 + 0.1);
		});
	}
});

describe("the cutter yields inside a note", () => {
	const shapes: [string, (n: number) => string][] = [
		["one base64 line", (n) => `# Clipping\n\n![img](data:image/png;base64,${base64(n)})\n`],
		["CJK without punctuation", (n) => "漢字仮名交じり文".repeat(Math.ceil(n / 8)).slice(0, n)],
		["a single word", (n) => "a".repeat(n)],
		["random words, no punctuation", (n) => base64(n).replace(/[+/]/g, " ")],
		["minified JSON in a code block", (n) => `\`\`\`json\n${JSON.stringify(Array.from({ length: Math.ceil(n / 20) }, (_, i) => ({ k: i, v: "xy" })))}\n\`\`\`\n`],
	];
	for (const [name, make] of shapes) {
		it(`${name}: no step of a 1 MB note scans more than a few steps' worth of characters`, () => {
			const text = make(1_000_000);
			const steps = cutPassagesSteps(text);
			let most = 0;
			let count = 0;
			for (;;) {
				const before = passageScan.chars;
				const r = steps.next();
				most = Math.max(most, passageScan.chars - before);
				count++;
				if (r.done === true) break;
			}
			// A one-line note was cut in one step (every character of it in that step) before.
			expect(most).toBeLessThanOrEqual(4 * CUT_STEP_CHARS);
			expect(count).toBeGreaterThan(text.length / (4 * CUT_STEP_CHARS));
		});
	}

	it("the boundary scanner finds what the sentence-end pattern finds, a window at a time", () => {
		const piece = fc.constantFrom("a", " ", ".", "!", "?", "。", "！", "？", '"', "'", ")", "]", "」", "』", "\n", "\u3000", "\u00a0", "漢", "\t");
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 60 }).map((p) => p.join("")), fc.integer({ min: 1, max: 8 }), (text, window) => {
				const re = new RegExp(SENTENCE_END.source, "g");
				let scan = 0;
				for (;;) {
					const m = re.exec(text);
					// The scanner, looking `window` characters at a time from where the last match ended.
					let found: [number, number] | undefined;
					for (;;) {
						const limit = Math.min(text.length, scan + window);
						found = nextBoundary(text, scan, limit, false);
						if (found !== undefined || limit >= text.length) break;
						scan = limit;
					}
					if (m === null) {
						expect(found).toBeUndefined();
						break;
					}
					expect(found).toEqual([m.index, m.index + m[0].length]);
					scan = found?.[1] ?? text.length;
				}
			}),
			{ numRuns: 300 },
		);
	});
});
