// Tool loop overhead per round: see bench/toolLoopWorkload.ts for what is measured.
// The workload runs from an esbuild bundle, as the plugin ships: under tsx every module is
// transpiled on its own and imported constants become getter calls, which makes the estimator's
// hot loop several times slower than in the shipped main.js and would measure tsx, not the engine.
// Run alone with `npx tsx bench/toolLoop.ts`; bench/run.ts calls runToolLoopBench().
import { build } from "esbuild";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runStandalone } from "./stats";

interface Workload {
	runToolLoopTables(): Promise<string>;
}

function isWorkload(value: unknown): value is Workload {
	return typeof value === "object" && value !== null && "runToolLoopTables" in value && typeof value.runToolLoopTables === "function";
}

export async function runToolLoopBench(): Promise<string> {
	const dir = await mkdtemp(join(tmpdir(), "discover-toolloop-bench-"));
	try {
		const result = await build({
			entryPoints: [join(import.meta.dirname, "toolLoopWorkload.ts")],
			bundle: true,
			platform: "node",
			format: "esm",
			target: "es2022",
			write: false,
			logLevel: "silent",
		});
		const code = result.outputFiles[0]?.text;
		if (code === undefined) throw new Error("esbuild produced no output");
		const file = join(dir, "toolloop-bench.mjs");
		await writeFile(file, code);
		// eslint-disable-next-line no-unsanitized/method -- the bundle this function just wrote
		const workload: unknown = await import(pathToFileURL(file).href);
		if (!isWorkload(workload)) throw new Error("the bundled workload has no runToolLoopTables()");
		return "Measured on an esbuild bundle of the engine (as in main.js).\n\n" + (await workload.runToolLoopTables());
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

runStandalone(import.meta.url, runToolLoopBench);
