// Shared by the benchmark modules: summaries of timing samples, and running a module on its own.
import { pathToFileURL } from "node:url";

/** The median (the mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

/** Median and p95 as nearest-rank quantiles (the sample at ⌊q·n⌋). */
export function stats(samples: readonly number[]): { median: number; p95: number } {
	const sorted = [...samples].sort((a, b) => a - b);
	const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
	return { median: at(0.5), p95: at(0.95) };
}

/** Prints a module's tables when it is run directly (`npx tsx bench/x.ts`), not when bench/run.ts imports it. */
export function runStandalone(moduleUrl: string, run: () => Promise<string>): void {
	const entry = process.argv[1];
	if (entry === undefined || moduleUrl !== pathToFileURL(entry).href) return;
	run().then(
		(tables) => console.log(tables),
		(err: unknown) => {
			console.error(err);
			process.exitCode = 1;
		},
	);
}
