// Runs a workload from an esbuild bundle, as the plugin ships: under tsx every module is transpiled
// on its own and imported constants become getter calls, which makes the estimator's hot loop
// several times slower than in the shipped main.js and would measure tsx, not the engine.
import { build } from "esbuild";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** Bundles `entry` (a file in bench/), imports it and returns what its `run` export prints. */
export async function runBundledWorkload(entry: string, run: string): Promise<string> {
	const dir = await mkdtemp(join(tmpdir(), "discover-bench-"));
	try {
		const result = await build({
			entryPoints: [join(import.meta.dirname, entry)],
			bundle: true,
			platform: "node",
			format: "esm",
			target: "es2022",
			write: false,
			logLevel: "silent",
		});
		const code = result.outputFiles[0]?.text;
		if (code === undefined) throw new Error("esbuild produced no output");
		const file = join(dir, "bench.mjs");
		await writeFile(file, code);
		// eslint-disable-next-line no-unsanitized/method -- the bundle this function just wrote
		const workload: unknown = await import(pathToFileURL(file).href);
		const fn = typeof workload === "object" && workload !== null ? (workload as Record<string, unknown>)[run] : undefined;
		if (typeof fn !== "function") throw new Error(`the bundled workload has no ${run}()`);
		return "Measured on an esbuild bundle of the engine (as in main.js).\n\n" + String(await (fn as () => Promise<string>)());
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}
