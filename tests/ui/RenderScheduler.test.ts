import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RenderScheduler } from "../../src/ui/panel/RenderScheduler";
import { ManualFrames } from "./fakes";

describe("RenderScheduler", () => {
	it("coalesces any number of updates into one render per frame", () => {
		fc.assert(
			fc.property(fc.array(fc.nat(20), { minLength: 1, maxLength: 40 }), (burstSizes) => {
				const frames = new ManualFrames();
				let renders = 0;
				const s = new RenderScheduler(() => renders++, frames.options);
				let framesWithWork = 0;
				for (const n of burstSizes) {
					for (let i = 0; i < n; i++) s.schedule();
					if (n > 0) framesWithWork++;
					frames.frame();
				}
				expect(renders).toBe(framesWithWork);
			}),
		);
	});

	it("leaves frames free after a slow render", () => {
		const frames = new ManualFrames();
		let renders = 0;
		const s = new RenderScheduler(
			() => {
				renders++;
				frames.time += 30; // a 30 ms render
			},
			{ ...frames.options, maxShare: 0.5 },
		);
		s.schedule();
		frames.frame();
		expect(renders).toBe(1);
		s.schedule();
		frames.frame(16);
		expect(renders).toBe(1);
		frames.frame(16);
		expect(renders).toBe(2);
	});

	it("keeps a minimum interval between renders when asked", () => {
		const frames = new ManualFrames();
		let renders = 0;
		const s = new RenderScheduler(() => renders++, { ...frames.options, minIntervalMs: 50 });
		for (let i = 0; i < 12; i++) {
			s.schedule();
			frames.frame(16);
		}
		// 192 ms of frames with work in every one: renders at 64, 128 and 192 ms at most.
		expect(renders).toBeLessThanOrEqual(4);
		expect(renders).toBeGreaterThanOrEqual(3);
	});

	it("flush renders pending work at once and dispose drops it", () => {
		const frames = new ManualFrames();
		let renders = 0;
		const s = new RenderScheduler(() => renders++, frames.options);
		s.schedule();
		s.flush();
		expect(renders).toBe(1);
		s.flush();
		expect(renders).toBe(1);
		s.schedule();
		s.dispose();
		frames.frame();
		expect(renders).toBe(1);
	});
});
