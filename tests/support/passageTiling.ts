// The passage cutter's first promise, checked by several tests: passages tile the text, consecutive,
// without overlap or gap, and cover it all; optionally, no passage ends inside a surrogate pair.
import { expect } from "vitest";

export function expectTiling(text: string, passages: readonly { start: number; end: number }[], opts: { surrogates?: boolean } = {}): void {
	let at = 0;
	for (const p of passages) {
		expect(p.start).toBe(at);
		expect(p.end).toBeGreaterThan(p.start);
		if (opts.surrogates === true && p.end < text.length) {
			const c = text.charCodeAt(p.end - 1);
			expect(c >= 0xd800 && c <= 0xdbff).toBe(false);
		}
		at = p.end;
	}
	expect(at).toBe(text.length);
}
