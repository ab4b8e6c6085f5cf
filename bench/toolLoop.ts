// Tool loop overhead per round: see bench/toolLoopWorkload.ts for what is measured, run from an
// esbuild bundle (bench/bundledWorkload.ts says why).
// Run alone with `npx tsx bench/toolLoop.ts`; bench/run.ts calls runToolLoopBench().
import { runBundledWorkload } from "./bundledWorkload";
import { runStandalone } from "./stats";

export function runToolLoopBench(): Promise<string> {
	return runBundledWorkload("toolLoopWorkload.ts", "runToolLoopTables");
}

runStandalone(import.meta.url, runToolLoopBench);
