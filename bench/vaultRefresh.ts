// The terminal chat's freshness check: NodeVault.refresh (scripts/nodeVault.ts) runs before every
// @vault message and every tool call, so it must stay cheap on a real vault. On a folder of 2,000
// notes of ~2 KB in 40 folders: the refresh of an unchanged folder (readdir + lstat per note, no
// read), one after a single note changed, and for scale what reading and indexing it all again costs.
// Run standalone with `npx tsx bench/vaultRefresh.ts`; bench/run.ts calls runVaultRefreshBench().
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { NodeVault } from "../scripts/nodeVault";
import { fillerParagraphs, LANGS, syntheticNote } from "./contextData";
import { runStandalone, stats } from "./stats";

const NOTES = 2_000;
const FOLDERS = 40;
const NOTE_CHARS = 2_000;
const RUNS = 15;
/** What a refresh before each message may cost, typically (the median), without being felt next to a model's answer. */
const TARGET_MS = 100;

const row = (what: string, value: string, target: string, ok: boolean | undefined): string => `| ${what} | ${value} | ${target} | ${ok === undefined ? "" : ok ? "✓" : "✗"} |`;
const ms = (v: number): string => `${v.toFixed(1)} ms`;

async function timed(fn: () => Promise<unknown>): Promise<number> {
	const started = performance.now();
	await fn();
	return performance.now() - started;
}

export async function runVaultRefreshBench(): Promise<string> {
	const dir = await mkdtemp(join(tmpdir(), "discover-bench-refresh-"));
	try {
		const pools = LANGS.map((l) => fillerParagraphs(l));
		for (let f = 0; f < FOLDERS; f++) await mkdir(join(dir, `Folder ${f}`));
		for (let i = 0; i < NOTES; i++) await writeFile(join(dir, `Folder ${i % FOLDERS}`, `Note ${i}.md`), syntheticNote(i, NOTE_CHARS, pools));
		let vault: NodeVault | undefined;
		const opened = await timed(async () => (vault = await NodeVault.open(dir)));
		if (vault === undefined) throw new Error("not opened");
		const open = vault;
		await open.refresh(); // Warm the file system's caches as a chat's first message does.
		const unchanged: number[] = [];
		for (let r = 0; r < RUNS; r++) unchanged.push(await timed(() => open.refresh()));
		const oneChanged: number[] = [];
		for (let r = 0; r < RUNS; r++) {
			await writeFile(join(dir, "Folder 7", "Note 7.md"), `${syntheticNote(7, NOTE_CHARS, pools)}\nEdited ${r}.\n`);
			oneChanged.push(await timed(() => open.refresh()));
		}
		const u = stats(unchanged);
		const c = stats(oneChanged);
		return [
			`${NOTES} notes of ~${NOTE_CHARS / 1000} KB in ${FOLDERS} folders, ${RUNS} runs each.`,
			"",
			"| what | median (p95) | target (median) | |",
			"|---|--:|--:|:-:|",
			row("refresh, nothing changed (stat only)", `${ms(u.median)} (${ms(u.p95)})`, `< ${TARGET_MS} ms`, u.median < TARGET_MS),
			row("refresh, one note changed", `${ms(c.median)} (${ms(c.p95)})`, `< ${TARGET_MS} ms`, c.median < TARGET_MS),
			row("read and index everything again (open; for scale)", ms(opened), "", undefined),
			"",
			`Load average (1 min) at the end of the run: ${(loadavg()[0] ?? 0).toFixed(1)}.`,
		].join("\n");
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

runStandalone(import.meta.url, runVaultRefreshBench);
