// Search as the person types: waits for a pause (300 ms), and drops the answer of any search that
// finishes after a newer one started, so results never jump back to an older query.

export interface SearchRunnerOptions {
	delayMs?: number;
	setTimer?: (cb: () => void, ms: number) => number;
	clearTimer?: (handle: number) => void;
}

export class SearchRunner<T> {
	private handle: number | undefined;
	private generation = 0;
	private readonly delayMs: number;
	private readonly setTimer: (cb: () => void, ms: number) => number;
	private readonly clearTimer: (handle: number) => void;

	constructor(
		private readonly search: (query: string) => Promise<T>,
		private readonly onResult: (query: string, result: T) => void,
		private readonly onError: (query: string, err: unknown) => void = () => undefined,
		options: SearchRunnerOptions = {},
	) {
		this.delayMs = options.delayMs ?? 300;
		this.setTimer = options.setTimer ?? ((cb, ms) => window.setTimeout(cb, ms));
		this.clearTimer = options.clearTimer ?? ((h) => window.clearTimeout(h));
	}

	/** Schedules a search after the pause; a newer call replaces it. */
	request(query: string): void {
		this.cancelTimer();
		// Anything still running is now stale, even before the new search starts.
		this.generation++;
		this.handle = this.setTimer(() => {
			this.handle = undefined;
			void this.run(query);
		}, this.delayMs);
	}

	/** Searches at once (e.g. restoring a query when the modal reopens). */
	async runNow(query: string): Promise<void> {
		this.cancelTimer();
		this.generation++;
		await this.run(query);
	}

	dispose(): void {
		this.cancelTimer();
		this.generation++;
	}

	private async run(query: string): Promise<void> {
		const mine = this.generation;
		try {
			const result = await this.search(query);
			if (mine === this.generation) this.onResult(query, result);
		} catch (err) {
			if (mine === this.generation) this.onError(query, err);
		}
	}

	private cancelTimer(): void {
		if (this.handle !== undefined) this.clearTimer(this.handle);
		this.handle = undefined;
	}
}
