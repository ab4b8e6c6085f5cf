// Long jobs of the context layer (indexing a huge note, saving or loading the vault index) are
// written once as generators that yield between small units of work. `drain` runs one to its end
// in the current task; `runInSlices` awaits `yieldFn` whenever about `sliceMs` of work has run, so
// the app's main thread is never held much longer than a slice.

export type Steps<T> = Generator<void, T, void>;

/** Runs the steps to the end, synchronously. */
export function drain<T>(steps: Steps<T>): T {
	for (;;) {
		const r = steps.next();
		if (r.done === true) return r.value;
	}
}

export interface SliceTiming {
	slices: number;
	/** The longest run of work between two yields, in milliseconds. */
	longestSliceMs: number;
}

/** Runs the steps, awaiting `yieldFn` after every `sliceMs` of work. */
export async function runInSlices<T>(steps: Steps<T>, yieldFn: () => Promise<void>, options: { sliceMs?: number; now?: () => number; timing?: SliceTiming } = {}): Promise<T> {
	const sliceMs = options.sliceMs ?? 10;
	const now = options.now ?? ((): number => performance.now());
	const timing = options.timing ?? { slices: 0, longestSliceMs: 0 };
	let started = now();
	timing.slices++;
	for (;;) {
		const r = steps.next();
		if (r.done === true) {
			timing.longestSliceMs = Math.max(timing.longestSliceMs, now() - started);
			return r.value;
		}
		const spent = now() - started;
		if (spent >= sliceMs) {
			timing.longestSliceMs = Math.max(timing.longestSliceMs, spent);
			await yieldFn();
			timing.slices++;
			started = now();
		}
	}
}
