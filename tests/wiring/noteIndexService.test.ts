// @vitest-environment happy-dom
// The vault index behind @vault: built in slices after the layout is ready, kept up to date by the
// vault's events, saved in the plugin's folder and loaded on restart, re-indexing only changed
// notes; excluded folders stay out; the settings switch turns all of it off.
import { describe, expect, it } from "vitest";
import type * as O from "obsidian";
import { asObsidianApp, createTestApp, deleteFromExplorer, type App } from "../obsidian/harness";
import { Component } from "../obsidian/events";
import { INDEX_FILE, NoteIndexService } from "../../src/wiring/noteIndexService";
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
}

async function start(opts: { app?: App; settings?: Partial<DiscoverSettings>; layoutReady?: boolean; sliceMs?: number } = {}): Promise<Harness> {
	const app = opts.app ?? (await createTestApp({ files: FILES, layoutReady: opts.layoutReady ?? true }));
	await app.vault.adapter.mkdir(DIR);
	const settings: DiscoverSettings = { ...DEFAULT_SETTINGS, ...opts.settings };
	const h = { app, settings, yields: 0 } as Harness;
	h.service = new NoteIndexService({
		app: asObsidianApp(app),
		settings: () => h.settings,
		dir: DIR,
		saveDelayMs: 10,
		sliceMs: opts.sliceMs,
		yieldFn: () => {
			h.yields++;
			return new Promise((resolve) => window.setTimeout(resolve, 0));
		},
	});
	h.owner = new Component();
	h.owner.load();
	h.owner.addChild(h.service as unknown as Component);
	await h.service.whenBuilt();
	return h;
}

const ids = (h: Harness, query: string): string[] => [...new Set(h.service.search(query).map((hit) => hit.id))];
/** The vault events' reads settle. */
const flush = (): Promise<void> => new Promise((resolve) => window.setTimeout(resolve, 0));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => window.setTimeout(resolve, ms));
const saved = async (app: App): Promise<{ notes?: unknown[] } | undefined> => {
	const path = `${DIR}/${INDEX_FILE}`;
	return (await app.vault.adapter.exists(path)) ? (JSON.parse(await app.vault.adapter.read(path)) as { notes?: unknown[] }) : undefined;
};

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

	it("follows create, modify, rename and delete", async () => {
		const h = await start();
		const file = await h.app.vault.create("Notes/Cats.md", "Cats purr on the windowsill.");
		await flush();
		expect(ids(h, "windowsill")).toEqual(["Notes/Cats.md"]);
		await h.app.vault.modify(file, "Cats chase the laser pointer.");
		await flush();
		expect(ids(h, "windowsill")).toEqual([]);
		expect(ids(h, "laser")).toEqual(["Notes/Cats.md"]);
		await h.app.vault.rename(file, "Notes/Felines.md");
		await flush();
		expect(ids(h, "laser")).toEqual(["Notes/Felines.md"]);
		await deleteFromExplorer(h.app, "Notes/Felines.md");
		await flush();
		expect(ids(h, "laser")).toEqual([]);
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
		const h = await start({ app });
		expect(ids(h, "sailboat")).toEqual(["Notes/Boats.md"]);
		await sleep(30);
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

	it("unloading stops listening to the vault", async () => {
		const h = await start();
		h.owner.unload();
		await h.app.vault.create("Notes/Late.md", "A late zeppelin.");
		await flush();
		expect(ids(h, "zeppelin")).toEqual([]);
	});
});
