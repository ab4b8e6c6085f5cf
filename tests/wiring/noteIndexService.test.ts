// @vitest-environment happy-dom
// The vault index behind @vault: built in slices after the layout is ready, kept up to date by the
// vault's events, saved in the plugin's folder and loaded on restart, re-indexing only changed
// notes; excluded folders stay out; the settings switch turns all of it off.
import { describe, expect, it, vi } from "vitest";
import type * as O from "obsidian";
import { asObsidianApp, createTestApp, deleteFromExplorer, type App } from "../obsidian/harness";
import { Component } from "../obsidian/events";
import { INDEX_FILE, LEGACY_INDEX_FILE, NoteIndexService } from "../../src/wiring/noteIndexService";
import { NoteIndex } from "../../src/context/NoteIndex";
import { DEFAULT_SETTINGS, type DiscoverSettings } from "../../src/settings/settings";

const DIR = ".obsidian/plugins/discover-chat";
const FILES = {
	"Notes/Apples.md": "# Apples\n\nApples grow on trees in the orchard.\n",
	"Notes/Boats.md": "# Boats\n\nA sailboat crosses the harbour.\n",
	"Private/Diary.md": "The orchard secret is here.\n",
	"Discover/Exports/Chat.md": "Exported chat about the orchard.\n",
};

interface Harness {
	app: App;
	service: NoteIndexService;
	settings: DiscoverSettings;
	yields: number;
	owner: Component;
	/** While set, every yield waits for it: a save or load stands still between two slices. */
	paused?: Promise<void>;
}

async function start(opts: { app?: App; settings?: Partial<DiscoverSettings>; layoutReady?: boolean; sliceMs?: number; saveDelayMs?: number; noWait?: boolean } = {}): Promise<Harness> {
	const app = opts.app ?? (await createTestApp({ files: FILES, layoutReady: opts.layoutReady ?? true }));
	await app.vault.adapter.mkdir(DIR);
	const settings: DiscoverSettings = { ...DEFAULT_SETTINGS, ...opts.settings };
	const h = { app, settings, yields: 0 } as Harness;
	h.service = new NoteIndexService({
		app: asObsidianApp(app),
		settings: () => h.settings,
		dir: DIR,
		saveDelayMs: opts.saveDelayMs ?? 10,
		sliceMs: opts.sliceMs,
		yieldFn: async () => {
			h.yields++;
			await h.paused;
			await new Promise((resolve) => window.setTimeout(resolve, 0));
		},
	});
	h.owner = new Component();
	h.owner.load();
	h.owner.addChild(h.service as unknown as Component);
	if (opts.noWait !== true) await h.service.whenBuilt();
	return h;
}

const ids = (h: Harness, query: string): string[] => [...new Set(h.service.search(query).map((hit) => hit.id))];
/** The vault events' reads settle. */
const flush = (): Promise<void> => new Promise((resolve) => window.setTimeout(resolve, 0));
/** The vault events' reads settle and the changes they queued are indexed (in slices, in the background). */
const settled = async (h: Harness): Promise<void> => {
	await flush();
	await h.service.whenChangesIndexed();
};
const sleep = (ms: number): Promise<void> => new Promise((resolve) => window.setTimeout(resolve, ms));
/** The saved index as the engine reads it back (undefined: no file). */
const saved = async (app: App): Promise<{ notes: unknown[] } | undefined> => {
	const path = `${DIR}/${INDEX_FILE}`;
	if (!(await app.vault.adapter.exists(path))) return undefined;
	return { notes: [...NoteIndex.fromBinary(await app.vault.adapter.readBinary(path)).entries()] };
};
/** Resolves once the saved index has been written into place (the service writes a temporary file, then renames it), and that save has finished. */
function indexWritten(app: App, service: () => NoteIndexService): Promise<void> {
	const adapter = app.vault.adapter;
	const rename = adapter.rename.bind(adapter);
	return new Promise((resolve) => {
		adapter.rename = async (from: string, to: string) => {
			await rename(from, to);
			if (to === `${DIR}/${INDEX_FILE}`) {
				adapter.rename = rename;
				void service().whenSaved().then(resolve);
			}
		};
	});
}
/** A gate for Harness.paused, and the function that opens it. */
function gate(): { paused: Promise<void>; open: () => void } {
	let open = (): void => undefined;
	const paused = new Promise<void>((resolve) => (open = resolve));
	return { paused, open };
}
/** Records which notes the vault reads from now on. */
function recordReads(app: App): string[] {
	const reads: string[] = [];
	const read = app.vault.cachedRead.bind(app.vault);
	app.vault.cachedRead = (file: O.TFile) => {
		reads.push(file.path);
		return read(file);
	};
	return reads;
}

describe("the vault index service", () => {
	it("waits for the layout, then builds in slices, yielding to the app between them", async () => {
		const app = await createTestApp({ files: FILES, layoutReady: false });
		const h = await start({ app, sliceMs: 0 });
		expect(h.service.size).toBe(0);
		expect(h.service.state).toBe("waiting");
		app.workspace.setLayoutReady();
		await h.service.whenBuilt();
		expect(h.service.state).toBe("ready");
		// Every note is its own slice with a zero slice budget: the builder yielded after each.
		expect(h.yields).toBeGreaterThanOrEqual(2);
		expect(ids(h, "trees")).toEqual(["Notes/Apples.md"]);
	});

	it("leaves out the export and chats folders and the folders the person excluded", async () => {
		const h = await start({ settings: { indexExcludedFolders: ["Private"] } });
		expect(h.service.size).toBe(2);
		expect(ids(h, "orchard")).toEqual(["Notes/Apples.md"]);
		h.settings = { ...h.settings, indexExcludedFolders: [] };
		h.service.settingsChanged();
		await h.service.whenBuilt();
		expect(ids(h, "secret")).toEqual(["Private/Diary.md"]);
	});

	it("an excluded folder is compared as the fences compare: case, dotless ı and trailing dots do not let it in", async () => {
		for (const excluded of ["private", "PRIVATE", "Prıvate", "private.", " Private/"]) {
			const h = await start({ settings: { indexExcludedFolders: [excluded] } });
			expect(ids(h, "orchard secret"), excluded).not.toContain("Private/Diary.md");
			expect(h.service.isIndexed("Private/Diary.md")).toBe(false);
			h.owner.unload();
		}
	});

	it("keeps no note's text, in memory or in index.bin: a hit's passage is read back from the vault", async () => {
		const h = await start();
		await h.service.save();
		const saved = new TextDecoder().decode(await h.app.vault.adapter.readBinary(`${DIR}/${INDEX_FILE}`));
		expect(saved).not.toContain("sailboat crosses");
		expect(h.service.search("sailboat")[0]?.text).toBe("");
		const hits = await h.service.searchText("sailboat");
		expect(hits.map((hit) => [hit.id, hit.text.trim()])).toEqual([["Notes/Boats.md", "# Boats\n\nA sailboat crosses the harbour."]]);
	});

	it("a note changed on disk before its event is indexed again through the change queue, and its hit is the new text", async () => {
		const h = await start();
		// Written behind the vault's back: no modify event has reached the index yet.
		await h.app.vault.adapter.write("Notes/Boats.md", "# Boats\n\nA sailboat rounds the lighthouse.");
		const hits = await h.service.searchText("sailboat");
		expect(hits.map((hit) => hit.text.trim())).toEqual(["# Boats\n\nA sailboat rounds the lighthouse."]);
		expect(ids(h, "lighthouse")).toEqual(["Notes/Boats.md"]);
	});

	it("follows create, modify, rename and delete", async () => {
		const h = await start();
		const file = await h.app.vault.create("Notes/Cats.md", "Cats purr on the windowsill.");
		await settled(h);
		expect(ids(h, "windowsill")).toEqual(["Notes/Cats.md"]);
		await h.app.vault.modify(file, "Cats chase the laser pointer.");
		await settled(h);
		expect(ids(h, "windowsill")).toEqual([]);
		expect(ids(h, "laser")).toEqual(["Notes/Cats.md"]);
		await h.app.vault.rename(file, "Notes/Felines.md");
		await settled(h);
		expect(ids(h, "laser")).toEqual(["Notes/Felines.md"]);
		await deleteFromExplorer(h.app, "Notes/Felines.md");
		await settled(h);
		expect(ids(h, "laser")).toEqual([]);
	});

	it("a sync that brings 5,000 changed notes is indexed in the background: many short slices, never one note-sized task", async () => {
		// Work is counted, not timed: the clock moves 0.5 ms each time it is read, so an 8 ms slice holds
		// about eight steps of indexing, and the yields between slices are counted.
		let clock = 0;
		const app = await createTestApp({ files: FILES, layoutReady: true });
		const h = await start({ app, sliceMs: 8 });
		const service = h.service as unknown as { options: { now?: () => number } };
		service.options.now = () => (clock += 0.5);
		const yieldsBefore = h.yields;
		// Notes whose indexing starts between two yields to the app: the notes one task indexes.
		const perTask = new Map<number, number>();
		const index = (h.service as unknown as { index: NoteIndex }).index;
		const upsertSteps = index.upsertSteps.bind(index);
		let counting = false;
		index.upsertSteps = (...args) => {
			if (counting) perTask.set(h.yields, (perTask.get(h.yields) ?? 0) + 1);
			return upsertSteps(...args);
		};
		// Notes are written first, then the sync's 5,000 modify events come at once.
		const files: O.TFile[] = [];
		await app.vault.createFolder("Synced");
		for (let i = 0; i < 5000; i++) files.push(await app.vault.create(`Synced/Note ${i}.md`, `Note ${i} about tide${i} and harbours.`));
		await settled(h);
		counting = true;
		await Promise.all(files.map((f) => app.vault.modify(f, `Note ${f.basename} changed: lighthouse${f.basename.replace(/\D/g, "")}.`)));
		await settled(h);
		counting = false;
		expect(h.service.size).toBe(5003);
		expect(ids(h, "lighthouse4321")).toEqual(["Synced/Note 4321.md"]);
		expect(ids(h, "tide4321")).toEqual([]);
		// Indexed in many slices, the app running between them; none of them took the whole sync.
		expect(h.yields - yieldsBefore).toBeGreaterThan(5000 / 16);
		expect(Math.max(...perTask.values())).toBeLessThanOrEqual(20);
		h.owner.unload();
	});

	it("is saved in the plugin's folder and loaded on restart; only a note whose mtime changed is read again", async () => {
		const first = await start();
		await sleep(30);
		const data = await saved(first.app);
		expect(data?.notes).toHaveLength(3);
		first.owner.unload();
		// The next start: one note changed behind the plugin's back (no event while it was off).
		const boats = first.app.vault.getFileByPath("Notes/Boats.md")!;
		await first.app.vault.adapter.write(boats.path, "# Boats\n\nA canoe on the lake.\n");
		boats.stat = { ...boats.stat, mtime: boats.stat.mtime + 1000 };
		const reads: string[] = [];
		const read = first.app.vault.cachedRead.bind(first.app.vault);
		first.app.vault.cachedRead = (file: O.TFile) => {
			reads.push(file.path);
			return read(file);
		};
		const second = await start({ app: first.app });
		expect(reads).toEqual(["Notes/Boats.md"]);
		expect(ids(second, "canoe")).toEqual(["Notes/Boats.md"]);
		expect(ids(second, "orchard")).toContain("Notes/Apples.md");
	});

	it("a saved index of another format or version is rebuilt, not trusted", async () => {
		const app = await createTestApp({ files: FILES });
		await app.vault.adapter.mkdir(DIR);
		await app.vault.adapter.write(`${DIR}/${INDEX_FILE}`, JSON.stringify({ format: "discover-note-index", version: 999, notes: [] }));
		let harness: Harness | undefined;
		const written = indexWritten(app, () => (harness as Harness).service);
		const h = (harness = await start({ app }));
		expect(ids(h, "sailboat")).toEqual(["Notes/Boats.md"]);
		await written;
		expect((await saved(app))?.notes).toHaveLength(3);
	});

	it("switched off: nothing is indexed, searched or kept on disk", async () => {
		const off = await start({ settings: { vaultIndex: false } });
		expect(off.service.state).toBe("off");
		expect(off.service.search("orchard")).toEqual([]);
		expect(await saved(off.app)).toBeUndefined();
		const on = await start();
		await sleep(30);
		expect(await saved(on.app)).toBeDefined();
		on.settings = { ...on.settings, vaultIndex: false };
		on.service.settingsChanged();
		await sleep(10);
		expect(on.service.search("orchard")).toEqual([]);
		expect(await saved(on.app)).toBeUndefined();
	});

	it("is saved as binary (index.bin) and a restart loads it without reading any note", async () => {
		const app = await createTestApp({ files: FILES });
		let harness: Harness | undefined;
		const written = indexWritten(app, () => (harness as Harness).service);
		const first = (harness = await start({ app }));
		await written;
		const bytes = new Uint8Array(await first.app.vault.adapter.readBinary(`${DIR}/index.bin`));
		// Not JSON text: the binary format, which the engine reads back whole.
		expect(bytes[0]).not.toBe("{".charCodeAt(0));
		expect(NoteIndex.fromBinary(bytes).size).toBe(3);
		first.owner.unload();
		const reads = recordReads(first.app);
		const second = await start({ app: first.app });
		expect(reads).toEqual([]);
		expect(second.service.size).toBe(3);
		expect(ids(second, "sailboat")).toEqual(["Notes/Boats.md"]);
	});

	it("an old index.json leads to a rebuild, and is removed once the binary index is written", async () => {
		const app = await createTestApp({ files: FILES });
		await app.vault.adapter.mkdir(DIR);
		await app.vault.adapter.write(`${DIR}/index.json`, JSON.stringify(new NoteIndex().toJSON()));
		const reads = recordReads(app);
		let harness: Harness | undefined;
		const written = indexWritten(app, () => (harness as Harness).service);
		const h = (harness = await start({ app }));
		expect(reads).toHaveLength(3);
		expect(ids(h, "sailboat")).toEqual(["Notes/Boats.md"]);
		await written;
		expect((await saved(app))?.notes).toHaveLength(3);
		expect(await app.vault.adapter.exists(`${DIR}/${LEGACY_INDEX_FILE}`)).toBe(false);
		expect(await app.vault.adapter.exists(`${DIR}/index.json`)).toBe(false);
	});

	it("saving and loading yield to the app between slices", async () => {
		const first = await start({ sliceMs: 0, saveDelayMs: 60_000 });
		const beforeSave = first.yields;
		await first.service.save();
		expect(first.yields).toBeGreaterThan(beforeSave);
		expect((await saved(first.app))?.notes).toHaveLength(3);
		first.owner.unload();
		const second = await start({ app: first.app, sliceMs: 0, noWait: true });
		const duringLoad: number[] = [];
		const seen = window.setInterval(() => {
			if (second.service.state === "loading") duringLoad.push(second.yields);
		}, 0);
		await second.service.whenBuilt();
		window.clearInterval(seen);
		expect(duringLoad.some((n) => n > 0)).toBe(true);
		expect(second.service.size).toBe(3);
	});

	it("unloading during a save stops it between slices: nothing is written, no error", async () => {
		const h = await start({ sliceMs: 0, saveDelayMs: 60_000 });
		const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
		try {
			const { paused, open } = gate();
			h.paused = paused;
			const saving = h.service.save();
			await flush();
			h.owner.unload();
			open();
			await saving;
			expect(await h.app.vault.adapter.exists(`${DIR}/${INDEX_FILE}`)).toBe(false);
			expect(await h.app.vault.adapter.exists(`${DIR}/${INDEX_FILE}.tmp`)).toBe(false);
			expect(errors).not.toHaveBeenCalled();
		} finally {
			errors.mockRestore();
		}
	});

	it("unloading during a load stops it: no note is read or indexed afterwards", async () => {
		const first = await start();
		await sleep(30);
		first.owner.unload();
		await first.app.vault.create("Notes/New.md", "A new note about kites.");
		const reads = recordReads(first.app);
		const { paused, open } = gate();
		const second = await start({ app: first.app, sliceMs: 0, noWait: true });
		second.paused = paused;
		await flush();
		second.owner.unload();
		open();
		await second.service.whenBuilt();
		await sleep(10);
		expect(reads).toEqual([]);
		expect(second.service.size).toBe(0);
	});

	it("unloading stops listening to the vault", async () => {
		const h = await start();
		h.owner.unload();
		await h.app.vault.create("Notes/Late.md", "A late zeppelin.");
		await flush();
		expect(ids(h, "zeppelin")).toEqual([]);
	});
});
