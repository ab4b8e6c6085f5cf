// Engine overhead per send: see bench/engineWorkload.ts for what is measured, run from an esbuild
// bundle (bench/bundledWorkload.ts says why).
// Run alone with `npx tsx bench/engine.ts`; bench/run.ts calls runEngineBench().
import { runBundledWorkload } from "./bundledWorkload";
import { runStandalone } from "./stats";

export function runEngineBench(): Promise<string> {
	return runBundledWorkload("engineWorkload.ts", "runEngineTables");
}

runStandalone(import.meta.url, runEngineBench);
