// Gets large note sources ready before a send: the active note and the notes the person added are
// cut into passages and analyzed by the engine in slices of a few milliseconds (the engine yields to
// the app between them), a short pause after they appear, so neither a send nor the preview pays
// for a 1 MB note in one long task. Until a large source is ready the preview leaves it out, as it
// leaves out a note not read yet, and counts it once it is.
import { debounce } from "obsidian";
import type { ContextSource } from "../../../core/types";

/** Below this many characters a source is cut and analyzed faster than a frame: not worth waiting for. */
export const PREPARE_MIN_CHARS = 20_000;
/** The pause after the sources change before preparing starts (the active note follows every click). */
export const PREPARE_DELAY_MS = 300;

export type PrepareFn = (id: string, text: string, name: string) => Promise<void>;

export class SourcePreparer {
	/** Source id → the source as prepared (the engine's cache is keyed by id, text and name). */
	private readonly ready = new Map<string, ContextSource>();
	/** Sources waiting to be prepared, by id (the latest text wins). */
	private readonly queue = new Map<string, ContextSource>();
	private running = false;
	private stopped = false;
	private readonly startLater = debounce(() => void this.run(), PREPARE_DELAY_MS, true);

	constructor(
		/** The engine's prepare (undefined: no engine yet, or one that prepares nothing). */
		private readonly prepare: () => PrepareFn | undefined,
		/** A source became ready: the preview can count it now. */
		private readonly onReady: () => void,
	) {}

	/**
	 * The sources the preview may count now: every source but the large ones not ready yet, which
	 * are queued and reported through onReady.
	 */
	counted(sources: ContextSource[]): ContextSource[] {
		if (this.prepare() === undefined) return sources;
		// Sources no longer attached are forgotten (their texts may be megabytes).
		const ids = new Set(sources.map((s) => s.id));
		for (const id of this.ready.keys()) if (!ids.has(id)) this.ready.delete(id);
		return sources.filter((source) => {
			if (!this.worthPreparing(source) || this.isReady(source)) return true;
			this.want(source);
			return false;
		});
	}

	/**
	 * The estimator may have changed (an answer recalibrated it): the ready sources are prepared
	 * again in the background, and keep being counted meanwhile.
	 */
	again(): void {
		for (const [id, source] of this.ready) if (!this.queue.has(id)) this.queue.set(id, source);
		if (this.queue.size > 0) this.startLater();
	}

	stop(): void {
		this.stopped = true;
		this.startLater.cancel();
		this.queue.clear();
	}

	private worthPreparing(source: ContextSource): boolean {
		return source.kind !== "selection" && source.text.length >= PREPARE_MIN_CHARS;
	}

	private isReady(source: ContextSource): boolean {
		const ready = this.ready.get(source.id);
		return ready !== undefined && ready.text === source.text && ready.name === source.name;
	}

	private want(source: ContextSource): void {
		const queued = this.queue.get(source.id);
		if (queued?.text === source.text && queued.name === source.name) return;
		this.queue.set(source.id, source);
		this.startLater();
	}

	private async run(): Promise<void> {
		if (this.running) return;
		this.running = true;
		try {
			for (;;) {
				const next = this.queue.values().next();
				const prepare = this.prepare();
				if (next.done === true || this.stopped || !prepare) return;
				const source = next.value;
				this.queue.delete(source.id);
				try {
					await prepare(source.id, source.text, source.name);
				} catch (err) {
					// The send does the work itself: nothing is lost but time.
					console.error("Discover: a source could not be prepared ahead of sending", err);
				}
				if (this.stopped) return;
				const wasReady = this.isReady(source);
				this.ready.set(source.id, source);
				if (!wasReady) this.onReady();
			}
		} finally {
			this.running = false;
		}
	}
}
