// @vitest-environment happy-dom
// A big vault's first build: its progress is told ("Indexing 41,200 of 100,000 notes" in the status
// bar), search answers from the notes indexed so far while it runs, and the index so far is saved
// every checkpoint, so an app closed mid-build resumes where it was instead of starting over.
import { describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp, type App } from "../obsidian/harness";
import { Component } from "../obsidian/events";
import { INDEX_FILE, NoteIndexService, type IndexProgress } from "../../src/wiring/noteIndexService";
import { NoteIndex } from "../../src/context/NoteIndex";
import { DEFAULT_SETTINGS } from "../../src/settings/settings";
import { showIndexProgress } from "../../src/ui/indexProgress";
import { setLanguage } from "../../src/i18n";

const DIR = ".obsidian/plugins/discover-chat";
const NOTES = 450;
const files = (): Record<string, string> => Object.fromEntries(Array.from({ length: NOTES }, (_, i) => [`Notes/n${i}.md`, `# Note ${i}\n\nThe keeper of lamp${i} writes here.\n`]));

interface Run {
	app: App;
	service: NoteIndexService;
	owner: Component;
	told: (IndexProgress | undefined)[];
	/** Yields so far; at `stopAt` yields the gate holds every yield. */
	yields: number;
}

async function run(app: App, opts: { hold?: Promise<void>; holdAfter?: number; checkpointMs?: number; clock?: () => number } = {}): Promise<Run> {
	await app.vault.adapter.mkdir(DIR);
	const r = { app, told: [], yields: 0 } as unknown as Run;
	r.service = new NoteIndexService({
		app: asObsidianApp(app),
		settings: () => ({ ...DEFAULT_SETTINGS, vaultIndex: true }),
		dir: DIR,
		saveDelayMs: 10,
		sliceMs: 0,
		checkpointMs: opts.checkpointMs,
		now: opts.clock,
		onProgress: (p) => r.told.push(p),
		yieldFn: async () => {
			r.yields++;
			if (opts.hold && r.yields >= (opts.holdAfter ?? 0)) await opts.hold;
			await new Promise((resolve) => window.setTimeout(resolve, 0));
		},
	});
	r.owner = new Component();
	r.owner.load();
	r.owner.addChild(r.service as unknown as Component);
	return r;
}

const until = async (check: () => boolean): Promise<void> => {
	for (let i = 0; i < 2000 && !check(); i++) await new Promise((resolve) => window.setTimeout(resolve, 0));
	expect(check()).toBe(true);
};

describe("a vault index build in progress", () => {
	it("tells how far it is, answers searches from the notes indexed so far, and then says it is done", async () => {
		let open = (): void => undefined;
		const hold = new Promise<void>((resolve) => (open = resolve));
		const app = await createTestApp({ files: files(), layoutReady: true });
		const r = await run(app, { hold, holdAfter: 120 });
		await until(() => r.yields >= 120);
		const progress = r.service.progress;
		expect(r.service.state).toBe("building");
		expect(progress?.total).toBe(NOTES);
		expect(progress?.done).toBeGreaterThan(0);
		expect(progress?.done).toBeLessThan(NOTES);
		// Search answers meanwhile: an indexed note is found, one not yet indexed is not.
		expect(r.service.search("lamp3")[0]?.id).toBe("Notes/n3.md");
		expect(r.service.search(`lamp${NOTES - 1}`).some((h) => h.id === `Notes/n${NOTES - 1}.md`)).toBe(false);
		const el = createDiv();
		setLanguage("en");
		showIndexProgress(el, { done: 41_200, total: 100_000 });
		expect(el.textContent).toBe("Indexing 41,200 of 100,000 notes");
		setLanguage("de");
		showIndexProgress(el, { done: 41_200, total: 100_000 });
		expect(el.textContent).toBe("Indiziere 41.200 von 100.000 Notizen");
		setLanguage("en");
		showIndexProgress(el, undefined);
		expect(el.textContent).toBe("");
		expect(el.classList.contains("discover-index-progress-idle")).toBe(true);
		open();
		await r.service.whenBuilt();
		expect(r.service.progress).toBeUndefined();
		expect(r.told.at(-1)).toBeUndefined();
		const dones = r.told.filter((p) => p !== undefined).map((p) => p.done);
		expect(dones.length).toBeGreaterThanOrEqual(4);
		expect(dones).toEqual([...dones].sort((a, b) => a - b));
		expect(r.service.search(`lamp${NOTES - 1}`)[0]?.id).toBe(`Notes/n${NOTES - 1}.md`);
		r.owner.unload();
	});

	it("saves the index so far at each checkpoint: closed mid-build, the next start indexes only the rest", async () => {
		const app = await createTestApp({ files: files(), layoutReady: true });
		let clock = 0;
		// A clock that moves 1 ms a reading, checkpoints every 200 ms; the app closes once one was saved.
		const first = await run(app, { checkpointMs: 200, clock: () => clock++ });
		let exists = false;
		await until(() => {
			void app.vault.adapter.exists(`${DIR}/${INDEX_FILE}`).then((e) => (exists = e));
			return exists;
		});
		await first.service.whenSaved();
		first.owner.unload();
		expect(first.service.size).toBeLessThan(NOTES);
		const bytes = await app.vault.adapter.readBinary(`${DIR}/${INDEX_FILE}`);
		const partial = NoteIndex.fromBinary(bytes).size;
		expect(partial).toBeGreaterThan(0);
		expect(partial).toBeLessThan(NOTES);
		const second = await run(app);
		await second.service.whenBuilt();
		expect(second.service.size).toBe(NOTES);
		expect(second.told.find((p) => p !== undefined)?.total).toBe(NOTES - partial);
		second.owner.unload();
	});
});
