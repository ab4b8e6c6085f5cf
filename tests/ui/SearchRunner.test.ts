import { describe, expect, it, vi } from "vitest";
import { SearchRunner } from "../../src/ui/history/SearchRunner";
import { nodeTimers } from "../support/nodeTimers";

function deferred<T>() {
	let resolve!: (v: T) => void;
	const promise = new Promise<T>((r) => (resolve = r));
	return { promise, resolve };
}

// Node's timers (vi.useFakeTimers replaces them): this test runs in Node, not in a window.
const timers = { setTimer: (cb: () => void, ms: number) => Number(nodeTimers.set(cb, ms)), clearTimer: (h: number) => nodeTimers.clear(h) };

describe("SearchRunner", () => {
	it("waits for a 300 ms pause in typing", async () => {
		vi.useFakeTimers();
		try {
			const calls: string[] = [];
			const runner = new SearchRunner((q) => (calls.push(q), Promise.resolve(q)), () => undefined, undefined, timers);
			runner.request("a");
			await vi.advanceTimersByTimeAsync(200);
			runner.request("ab");
			await vi.advanceTimersByTimeAsync(299);
			expect(calls).toEqual([]);
			await vi.advanceTimersByTimeAsync(1);
			expect(calls).toEqual(["ab"]);
		} finally {
			vi.useRealTimers();
		}
	});

	it("discards a slower, older search that finishes after a newer one", async () => {
		const pending = new Map<string, ReturnType<typeof deferred<string>>>();
		const shown: string[] = [];
		const runner = new SearchRunner(
			(q) => {
				const d = deferred<string>();
				pending.set(q, d);
				return d.promise;
			},
			(_q, r) => shown.push(r),
		);
		const first = runner.runNow("old");
		const second = runner.runNow("new");
		pending.get("new")!.resolve("new results");
		await second;
		pending.get("old")!.resolve("old results");
		await first;
		expect(shown).toEqual(["new results"]);
	});

	it("drops results that arrive after typing started again", async () => {
		const d = deferred<string>();
		const shown: string[] = [];
		const runner = new SearchRunner(() => d.promise, (_q, r) => shown.push(r), undefined, timers);
		const running = runner.runNow("first");
		runner.request("second");
		d.resolve("first results");
		await running;
		runner.dispose();
		expect(shown).toEqual([]);
	});
});
