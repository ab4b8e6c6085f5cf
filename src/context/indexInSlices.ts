// Builds a NoteIndex without holding the thread: notes are indexed one by one, and after every
// `sliceMs` of work the builder awaits `yieldFn` (the app passes a zero-delay timer or
// requestIdleCallback) so no task runs much past the slice. A huge note is indexed in steps of
// about 48,000 characters (NoteIndex.upsertSteps), so a megabyte note is spread over slices too; the
// index changes only at its last step. Between notes, once the postings held decoded outgrow half the
// encoded ones, they are encoded again (NoteIndex.compactSteps, in steps too), and once more at the
// end past a 32nd (and 16 MB): a built index holds about 1.5 bytes a posting, not 4.
import type { NoteIndex } from "./NoteIndex";

export interface NoteToIndex {
	id: string;
	text: string;
	name?: string;
	mtime?: number;
	/** The note is gone: it is removed from the index (in steps too), `text` is ignored. */
	remove?: boolean;
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
	const run = async (steps: Generator<void, unknown, void>): Promise<void> => {
		for (;;) {
			const started = now();
			const done = steps.next().done === true;
			work += now() - started;
			if (work >= sliceMs) {
				report.longestSliceMs = Math.max(report.longestSliceMs, work);
				await yieldFn();
				report.slices++;
				work = 0;
			}
			if (done) break;
		}
	};
	for await (const note of notes) {
		if (options.cancelled?.()) break;
		await run(note.remove === true ? index.removeSteps(note.id) : index.upsertSteps(note.id, note.text, note.name, note.mtime));
		report.notes++;
		if (index.compactionDue()) await run(index.compactSteps());
	}
	if (!options.cancelled?.() && index.compactionDue(1 / 32)) await run(index.compactSteps());
	report.longestSliceMs = Math.max(report.longestSliceMs, work);
	return report;
}
