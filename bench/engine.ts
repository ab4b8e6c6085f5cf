// Engine overhead per send: see bench/engineWorkload.ts for what is measured.
// The workload runs from an esbuild bundle, as the plugin ships: under tsx every module is
// transpiled on its own and imported constants become getter calls, which makes the estimator's
// hot loop several times slower than in the shipped main.js and would measure tsx, not the engine.
// Run alone with `npx tsx bench/engine.ts`; bench/run.ts calls runEngineBench().
import { build } from "esbuild";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runStandalone } from "./stats";

interface Workload {
	runEngineTables(): Promise<string>;
}

function isWorkload(value: unknown): value is Workload {
	return typeof value === "object" && value !== null && "runEngineTables" in value && typeof value.runEngineTables === "function";
}

export async function runEngineBench(): Promise<string> {
	const dir = await mkdtemp(join(tmpdir(), "discover-engine-bench-"));
	try {
		const result = await build({
			entryPoints: [join(import.meta.dirname, "engineWorkload.ts")],
			bundle: true,
			platform: "node",
			format: "esm",
			target: "es2022",
			write: false,
			logLevel: "silent",
		});
		const code = result.outputFiles[0]?.text;
		if (code === undefined) throw new Error("esbuild produced no output");
		const file = join(dir, "engine-bench.mjs");
		await writeFile(file, code);
		// eslint-disable-next-line no-unsanitized/method -- the bundle this function just wrote
		const workload: unknown = await import(pathToFileURL(file).href);
		if (!isWorkload(workload)) throw new Error("the bundled workload has no runEngineTables()");
		return "Measured on an esbuild bundle of the engine (as in main.js).\n\n" + (await workload.runEngineTables());
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

runStandalone(import.meta.url, runEngineBench);
