// The progress a running tool reports, thinned for its card (src/chat/progressThrottle.ts), as
// properties over random reports at random times on a fake clock: two updates shown are never
// closer than the limit, each shown update is one that was reported (in order), and when the tool
// goes quiet for the limit the card shows its newest report; after the end nothing more is shown.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { progressThrottle, type ThrottleClock } from "../../src/chat/progressThrottle";
import type { ToolProgress } from "../../src/core/types";

/** A clock whose time moves only when told, running the timers that fall due. */
function fakeClock() {
	let now = 0;
	let next = 1;
	const timers = new Map<number, { at: number; fn: () => void }>();
	const clock: ThrottleClock = {
		now: () => now,
		start: (fn, ms) => {
			const id = next++;
			timers.set(id, { at: now + ms, fn });
			return id;
		},
		stop: (h) => void timers.delete(h as number),
	};
	const advance = (ms: number): void => {
		const end = now + ms;
		for (;;) {
			const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
			if (due === undefined) break;
			timers.delete(due[0]);
			now = due[1].at;
			due[1].fn();
		}
		now = end;
	};
	return { clock, advance, now: () => now };
}

const EVERY = 100;

describe("a tool's progress on its card, as properties", () => {
	it("never closer than the limit, only what was reported in order, the newest shown once the tool is quiet, nothing after the end", () => {
		fc.assert(
			fc.property(fc.array(fc.record({ gap: fc.nat(250), progress: fc.integer({ min: 0, max: 1000 }) }), { minLength: 1, maxLength: 40 }), fc.boolean(), (reports, endEarly) => {
				const { clock, advance, now } = fakeClock();
				const shown: { at: number; p: ToolProgress }[] = [];
				const throttle = progressThrottle((p) => shown.push({ at: now(), p }), EVERY, clock);
				const sent: ToolProgress[] = [];
				for (const [i, r] of reports.entries()) {
					advance(r.gap);
					const p = { progress: r.progress, message: `#${i}` };
					sent.push(p);
					throttle.report(p);
				}
				if (endEarly) {
					throttle.end();
					const before = shown.length;
					advance(10 * EVERY);
					expect(shown.length).toBe(before);
				} else {
					advance(EVERY);
					// Quiet for the limit: the newest report is what the card shows.
					expect(shown.at(-1)?.p).toBe(sent.at(-1));
				}
				for (let i = 1; i < shown.length; i++) expect(shown[i]!.at - shown[i - 1]!.at).toBeGreaterThanOrEqual(EVERY);
				const order = shown.map((s) => sent.indexOf(s.p));
				expect(order.every((k) => k >= 0)).toBe(true);
				expect(order).toEqual([...order].sort((a, b) => a - b));
				expect(new Set(order).size).toBe(order.length);
			}),
			{ numRuns: 300 },
		);
	});

	it("a report that is not a finite number is ignored", () => {
		const { clock } = fakeClock();
		const shown: ToolProgress[] = [];
		const throttle = progressThrottle((p) => shown.push(p), EVERY, clock);
		throttle.report({ progress: Number.NaN });
		throttle.report({ progress: Infinity });
		throttle.report(null as unknown as ToolProgress);
		expect(shown).toEqual([]);
	});
});
