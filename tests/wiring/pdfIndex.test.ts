// @vitest-environment happy-dom
// "Index PDFs": with it on, the vault index service reads the vault's PDFs (through the app's own
// PDF opener, `loadPdfJs()` handing over pdfjs-dist) and `@vault` finds them, each passage under its
// page; a changed PDF is indexed again, a deleted one leaves, and turning the setting off takes every
// PDF out while the notes stay. Off by default. PDFs are read in slices, yielding to the app.
import { describe, expect, it, vi } from "vitest";
import { asObsidianApp, createTestApp, deleteFromExplorer, type App } from "../obsidian/harness";
import { Component } from "../obsidian/events";
import { fixtureBytes, nodePdfJs } from "../support/pdfjs";
import { NoteIndexService } from "../../src/wiring/noteIndexService";
import { PanelSources } from "../../src/ui/panel/sources/PanelSources";
import { DEFAULT_SETTINGS, type DiscoverSettings } from "../../src/settings/settings";
import type { PdfOpener } from "../../src/ui/panel/sources/pdfNotes";

vi.mock("obsidian", async (importOriginal) => ({
	...(await importOriginal<typeof import("obsidian")>()),
	loadPdfJs: () => Promise.resolve(nodePdfJs),
}));

const DIR = ".obsidian/plugins/discover-chat";

const buffer = (bytes: Uint8Array): ArrayBuffer => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

async function vault(): Promise<App> {
	const app = await createTestApp({ files: { "Notes/Harbour.md": "# Harbour\n\nThe harbour master keeps a ledger of the boats.\n" } });
	await app.vault.adapter.mkdir(DIR);
	await app.vault.createFolder("Papers");
	await app.vault.createBinary("Papers/Harbour ledger.pdf", buffer(fixtureBytes("plain.pdf")));
	await app.vault.createBinary("Papers/港口日志.pdf", buffer(fixtureBytes("cjk.pdf")));
	await app.vault.createBinary("Papers/Orchard.pdf", buffer(fixtureBytes("two-columns.pdf")));
	await app.vault.createBinary("Papers/Scan.pdf", buffer(fixtureBytes("scanned.pdf")));
	return app;
}

async function start(app: App, settings: Partial<DiscoverSettings>, extra: { openPdf?: PdfOpener; now?: () => number; yieldFn?: () => Promise<void>; sliceMs?: number } = {}) {
	const current: DiscoverSettings = { ...DEFAULT_SETTINGS, ...settings };
	const service = new NoteIndexService({ app: asObsidianApp(app), settings: () => current, dir: DIR, saveDelayMs: 10, ...extra });
	const owner = new Component();
	owner.load();
	owner.addChild(service as unknown as Component);
	await service.whenBuilt();
	return { service, settings: current };
}

const ids = (service: NoteIndexService, query: string): string[] => [...new Set(service.search(query).map((h) => h.id))];
const settled = async (service: NoteIndexService): Promise<void> => {
	await new Promise((resolve) => window.setTimeout(resolve, 0));
	await service.whenChangesIndexed();
};

describe("Index PDFs", () => {
	it("is off by default: PDFs stay out of the index", async () => {
		expect(DEFAULT_SETTINGS.indexPdfs).toBe(false);
		const { service } = await start(await vault(), {});
		expect(ids(service, "marrowstone")).toEqual([]);
		expect(ids(service, "harbour ledger")).toEqual(["Notes/Harbour.md"]);
		expect(service.isIndexed("Papers/Harbour ledger.pdf")).toBe(false);
	});

	it("on: @vault finds a PDF's passage under its page, CJK too; scans are indexed as empty, found by nothing", async () => {
		const { service } = await start(await vault(), { indexPdfs: true });
		expect(ids(service, "marrowstone")).toEqual(["Papers/Harbour ledger.pdf"]);
		const [hit] = await service.searchText("marrowstone", { limit: 1 });
		expect(hit?.text).toContain("marrowstone");
		expect(ids(service, "白鹭渡口")).toEqual(["Papers/港口日志.pdf"]);
		// A passage further down a page (search_notes shows it as it is) opens with its page's heading.
		const [right] = await service.searchText("saltpetrel", { limit: 1 });
		expect(right?.id).toBe("Papers/Orchard.pdf");
		expect(right?.start).toBeGreaterThan(0);
		expect(right?.text.startsWith("## p. 1\n\n")).toBe(true);
		expect(right?.text).toContain("saltpetrel");
		expect(ids(service, "saltglass")).not.toContain("Papers/Scan.pdf");

		// Through the panel's sources, as a send with @vault makes them: the PDF goes in by its pages.
		const sources = new PanelSources(document.body.createDiv(), asObsidianApp(service["options"].app as unknown as App), {
			vaultSearch: () => service,
			store: () => undefined,
			sessionId: () => undefined,
			onChange: () => undefined,
		});
		sources.add({ type: "vault" });
		const sent = await sources.sendSources("marrowstone");
		const pdf = sent.find((s) => s.id === "Papers/Harbour ledger.pdf");
		expect(pdf?.kind).toBe("retrieved");
		const at = pdf?.text.indexOf("marrowstone") ?? -1;
		expect(at).toBeGreaterThan(0);
		const pages = [...(pdf?.text.slice(0, at) ?? "").matchAll(/^## p\. (\d+)$/gm)].map((m) => m[1]);
		expect(pages[pages.length - 1]).toBe("2");
	});

	it("a changed PDF is indexed again, a deleted one leaves the index", async () => {
		const app = await vault();
		const { service } = await start(app, { indexPdfs: true });
		const file = app.vault.getFileByPath("Papers/Harbour ledger.pdf")!;
		await app.vault.modifyBinary(file, buffer(fixtureBytes("two-columns.pdf")));
		await settled(service);
		expect(ids(service, "marrowstone")).toEqual([]);
		expect(ids(service, "juniperhall").sort()).toEqual(["Papers/Harbour ledger.pdf", "Papers/Orchard.pdf"]);
		await deleteFromExplorer(app, file.path);
		await settled(service);
		expect(ids(service, "juniperhall")).toEqual(["Papers/Orchard.pdf"]);
		// A PDF added later joins it.
		await app.vault.createBinary("Papers/Later.pdf", buffer(fixtureBytes("plain.pdf")));
		await settled(service);
		expect(ids(service, "ravensgate")).toEqual(["Papers/Later.pdf"]);
	});

	it("turned off, every PDF leaves the index and the notes stay; turned on again, they come back", async () => {
		const { service, settings } = await start(await vault(), { indexPdfs: true });
		expect(ids(service, "copperwick")).toEqual(["Papers/Harbour ledger.pdf"]);
		settings.indexPdfs = false;
		service.settingsChanged();
		await service.whenBuilt();
		expect(ids(service, "copperwick")).toEqual([]);
		expect(ids(service, "青石灯笼")).toEqual([]);
		expect(ids(service, "harbour ledger")).toEqual(["Notes/Harbour.md"]);
		settings.indexPdfs = true;
		service.settingsChanged();
		await service.whenBuilt();
		expect(ids(service, "copperwick")).toEqual(["Papers/Harbour ledger.pdf"]);
	});

	it("reads a PDF's pages in slices, yielding to the app: no run of work longer than a slice and one page", async () => {
		const app = await createTestApp({ files: { "Note.md": "a note" } });
		await app.vault.adapter.mkdir(DIR);
		await app.vault.createBinary("Big.pdf", new ArrayBuffer(8));
		// A 300-page PDF whose every page costs 3 ms on the test's clock.
		const clock = { t: 0 };
		let since = 0;
		let longest = 0;
		const openPdf: PdfOpener = () => Promise.resolve({ pageCount: 300, pageText: (n: number) => ((clock.t += 3), Promise.resolve(`Page ${n} of the big report.`)) });
		const { service } = await start(app, { indexPdfs: true }, {
			openPdf,
			now: () => clock.t,
			sliceMs: 8,
			yieldFn: () => {
				longest = Math.max(longest, clock.t - since);
				since = clock.t;
				return new Promise((resolve) => window.setTimeout(resolve, 0));
			},
		});
		longest = Math.max(longest, clock.t - since);
		expect(clock.t).toBe(900);
		expect(longest).toBeLessThanOrEqual(8 + 3);
		expect(ids(service, "report")).toEqual(["Big.pdf"]);
	});

	it("turned off while a long PDF is being read, stops reading it between two slices", async () => {
		const app = await createTestApp({ files: { "Note.md": "a note" } });
		await app.vault.adapter.mkdir(DIR);
		await app.vault.createBinary("Huge.pdf", new ArrayBuffer(8));
		let asked = 0;
		let yields = 0;
		const openPdf: PdfOpener = () => Promise.resolve({ pageCount: 5000, pageText: (n: number) => (asked++, Promise.resolve(`Page ${n}.`)) });
		const current: DiscoverSettings = { ...DEFAULT_SETTINGS, indexPdfs: true };
		const service = new NoteIndexService({
			app: asObsidianApp(app),
			settings: () => current,
			dir: DIR,
			sliceMs: 0,
			openPdf,
			yieldFn: () => {
				yields++;
				// After a few slices, the person turns "Index PDFs" off.
				if (yields === 20) {
					current.indexPdfs = false;
					service.settingsChanged();
				}
				return new Promise((resolve) => window.setTimeout(resolve, 0));
			},
		});
		const owner = new Component();
		owner.load();
		owner.addChild(service as unknown as Component);
		await new Promise((resolve) => window.setTimeout(resolve, 0));
		while (yields < 20) await new Promise((resolve) => window.setTimeout(resolve, 0));
		await service.whenBuilt();
		// The build that was reading it has been replaced; give a reading that went on the time for 300 more pages.
		for (let k = 0; k < 300; k++) await new Promise((resolve) => window.setTimeout(resolve, 0));
		expect(asked).toBeLessThan(100);
		expect(ids(service, "page")).toEqual([]);
		expect(ids(service, "note")).toEqual(["Note.md"]);
	});
});
