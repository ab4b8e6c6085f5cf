import { describe, expect, it } from "vitest";
import { cutPassages, passageScan } from "../../src/context/passages";

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
