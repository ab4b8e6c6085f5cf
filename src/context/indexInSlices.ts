// Builds a NoteIndex without holding the thread: notes are indexed one by one, and after every
// `sliceMs` of work the builder awaits `yieldFn` (the app passes a zero-delay timer or
// requestIdleCallback) so no task runs much past the slice. One note is the smallest unit: a
// single huge note (a megabyte) takes its own tens of milliseconds.
import type { NoteIndex } from "./NoteIndex";

export interface NoteToIndex {
	id: string;
	text: string;
	name?: string;
	mtime?: number;
}

export interface SliceReport {
	notes: number;
	slices: number;
	/** The longest run of work between two yields, in milliseconds. */
	longestSliceMs: number;
}

export interface SliceOptions {
	sliceMs?: number;
	/** The clock (milliseconds); defaults to performance.now. */
	now?: () => number;
	/** Stops early (between notes) when it returns true: the plugin unloads, the feature is switched off. */
	cancelled?: () => boolean;
}

/** Indexes every note of `notes` into `index`, yielding between slices of about `sliceMs`. */
export async function indexInSlices(
	index: NoteIndex,
	notes: Iterable<NoteToIndex> | AsyncIterable<NoteToIndex>,
	yieldFn: () => Promise<void>,
	options: SliceOptions = {},
): Promise<SliceReport> {
	const sliceMs = options.sliceMs ?? 10;
	const now = options.now ?? ((): number => performance.now());
	const report: SliceReport = { notes: 0, slices: 1, longestSliceMs: 0 };
	// Work is counted from the upserts only: awaiting an async source (a vault read) already lets
	// other tasks run, and a sync source's `for await` adds only microtasks, counted in no task of ours.
	let work = 0;
	for await (const note of notes) {
		if (options.cancelled?.()) break;
		const started = now();
		index.upsert(note.id, note.text, note.name, note.mtime);
		work += now() - started;
		report.notes++;
		if (work >= sliceMs) {
			report.longestSliceMs = Math.max(report.longestSliceMs, work);
			await yieldFn();
			report.slices++;
			work = 0;
		}
	}
	report.longestSliceMs = Math.max(report.longestSliceMs, work);
	return report;
}
