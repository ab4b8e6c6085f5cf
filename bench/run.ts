// `npm run bench`: runs every benchmark module present and prints its tables; `npm run bench --
// linear vault100k` runs only the modules named (by file name, without `.ts`). Modules are loaded
// dynamically so a missing one is skipped with a note instead of failing the whole run.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

interface BenchModule {
	file: string;
	exportName: string;
	title: string;
}

const MODULES: readonly BenchModule[] = [
	{ file: "tokens.ts", exportName: "runTokenBench", title: "Token estimator" },
	{ file: "sessions.ts", exportName: "runSessionBench", title: "Session store" },
	{ file: "branches.ts", exportName: "runBranchBench", title: "Branches" },
	{ file: "engine.ts", exportName: "runEngineBench", title: "Chat engine" },
	{ file: "toolLoop.ts", exportName: "runToolLoopBench", title: "Tool loop overhead per round" },
	{ file: "checkpoint.ts", exportName: "runCheckpointBench", title: "Checkpoints of a streaming answer" },
	{ file: "providers.ts", exportName: "runProviderBench", title: "Providers" },
	{ file: "limits.ts", exportName: "runLimitsBench", title: "Hostile and broken servers" },
	{ file: "context.ts", exportName: "runContextBench", title: "Context: relevance fitting and the vault index" },
	{ file: "linear.ts", exportName: "runLinearBench", title: "Context: linear text work, 0.5 to 16 MB notes" },
	{ file: "retrieval.ts", exportName: "runRetrievalBench", title: "Context: retrieval quality" },
	{ file: "vault100k.ts", exportName: "runVaultBench", title: "Context: a 100,000-note vault, known-item search, against MiniSearch" },
	{ file: "tools.ts", exportName: "runToolsBench", title: "Vault tools" },
	{ file: "pdfIndex.ts", exportName: "runPdfIndexBench", title: "Index PDFs: reading and indexing time per page (pdfjs-dist)" },
	{ file: "pdfBrowser.ts", exportName: "runPdfBrowserBench", title: "PDFs in Chromium with pdf.js's worker: the main thread while the panel and the index read them" },
	{ file: "vaultRefresh.ts", exportName: "runVaultRefreshBench", title: "Terminal chat: refreshing the vault index from disk" },
	{ file: "windowUse.ts", exportName: "runWindowUseBench", title: "Window use against the server's count" },
	{ file: "promptCache.ts", exportName: "runPromptCacheBench", title: "Prompt cache: reuse of each follow-up prompt, and time to first token" },
	{ file: "imageDownscale.ts", exportName: "runImageDownscaleBench", title: "Images: downscaling a 12-megapixel photo (Chromium)" },
	{ file: "pluginLoad.ts", exportName: "runPluginLoadBench", title: "Plugin load: require + onload of main.js, MCP lazy (Chromium)" },
];

async function runOne(mod: BenchModule): Promise<{ text: string; ok: boolean }> {
	const path = join(import.meta.dirname, mod.file);
	if (!existsSync(path)) return { text: `_Skipped: bench/${mod.file} is not present._`, ok: true };
	// eslint-disable-next-line no-unsanitized/method -- a fixed file of this folder, imported by path so a missing one can be skipped
	const loaded: unknown = await import(pathToFileURL(path).href);
	const run = typeof loaded === "object" && loaded !== null ? (loaded as Record<string, unknown>)[mod.exportName] : undefined;
	if (typeof run !== "function") return { text: `_Skipped: bench/${mod.file} does not export ${mod.exportName}()._`, ok: true };
	try {
		const out: unknown = await (run as () => Promise<unknown>)();
		return { text: String(out), ok: true };
	} catch (err) {
		return { text: `**Failed:** ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`, ok: false };
	}
}

/** The modules the command line names (all when it names none); an unknown name is an error. */
function chosen(args: readonly string[]): readonly BenchModule[] {
	if (args.length === 0) return MODULES;
	const stem = (m: BenchModule): string => m.file.replace(/\.ts$/, "");
	const unknown = args.filter((a) => !MODULES.some((m) => stem(m) === a));
	if (unknown.length > 0) throw new Error(`No bench module named ${unknown.join(", ")}. Modules: ${MODULES.map(stem).join(", ")}.`);
	return MODULES.filter((m) => args.includes(stem(m)));
}

async function main(): Promise<void> {
	let failures = 0;
	for (const mod of chosen(process.argv.slice(2))) {
		const started = performance.now();
		const { text, ok } = await runOne(mod);
		if (!ok) failures++;
		const seconds = ((performance.now() - started) / 1000).toFixed(1);
		console.log(`## ${mod.title} (bench/${mod.file}, ${seconds} s)\n\n${text}\n`);
	}
	if (failures > 0) process.exitCode = 1;
}

void main();
