// Coalesces streaming updates: at most one render per animation frame, and when a render is slow
// (a long answer), more frames are left free between renders so typing and scrolling stay smooth.

export type FrameRequester = (cb: () => void) => number;
export type FrameCanceller = (handle: number) => void;

export interface RenderSchedulerOptions {
	requestFrame?: FrameRequester;
	cancelFrame?: FrameCanceller;
	now?: () => number;
	/** Keep the main thread at most this busy with rendering (0..1). */
	maxShare?: number;
	/** Never render more often than this (ms); 0 means every frame. */
	minIntervalMs?: number;
}

export class RenderScheduler {
	private handle: number | undefined;
	private readonly requestFrame: FrameRequester;
	private readonly cancelFrame: FrameCanceller;
	private readonly now: () => number;
	private readonly maxShare: number;
	private readonly minIntervalMs: number;
	private lastEnd = 0;
	private lastCost = 0;
	private disposed = false;

	constructor(
		private readonly render: () => void,
		options: RenderSchedulerOptions = {},
	) {
		this.requestFrame = options.requestFrame ?? ((cb) => window.requestAnimationFrame(cb));
		this.cancelFrame = options.cancelFrame ?? ((h) => window.cancelAnimationFrame(h));
		this.now = options.now ?? (() => performance.now());
		this.maxShare = options.maxShare ?? 0.5;
		this.minIntervalMs = options.minIntervalMs ?? 0;
	}

	/** Asks for a render; many calls before the next frame cause one render. */
	schedule(): void {
		if (this.disposed || this.handle !== undefined) return;
		this.handle = this.requestFrame(() => this.onFrame());
	}

	/** Renders now if something is pending (e.g. the stream ended). */
	flush(): void {
		if (this.handle === undefined) return;
		this.cancelFrame(this.handle);
		this.handle = undefined;
		this.run();
	}

	get pending(): boolean {
		return this.handle !== undefined;
	}

	dispose(): void {
		this.disposed = true;
		if (this.handle !== undefined) this.cancelFrame(this.handle);
		this.handle = undefined;
	}

	private onFrame(): void {
		this.handle = undefined;
		// A render that cost C ms waits C × (1/share − 1) ms before the next one.
		const spacing = Math.max(this.minIntervalMs, this.lastCost * (1 / this.maxShare - 1));
		if (this.now() - this.lastEnd < spacing) {
			this.handle = this.requestFrame(() => this.onFrame());
			return;
		}
		this.run();
	}

	private run(): void {
		const start = this.now();
		this.render();
		this.lastEnd = this.now();
		this.lastCost = this.lastEnd - start;
	}
}
