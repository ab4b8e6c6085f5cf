// @vitest-environment happy-dom
// PDFs in the panel's sources: `@` offers them beside notes, and an attached PDF is sent as one
// source whose sections are its pages ("p. N"), read through the PDF opener (in the app, pdf.js);
// a scanned PDF is said in a notice and sends nothing.
import "obsidian";
import { describe, expect, it, vi } from "vitest";
import { createTestApp, flush, notices, clearNotices } from "../obsidian/harness";
import { asObsidianApp } from "../obsidian/harness";
import { PanelSources } from "../../src/ui/panel/sources/PanelSources";
import { suggestSources } from "../../src/ui/panel/sources/sourceCandidates";
import type { PdfOpener } from "../../src/ui/panel/sources/pdfNotes";
import { dropRefs } from "../../src/ui/panel/sources/dropNotes";

// The pdf.js Obsidian ships, as the app's loadPdfJs() hands it over: a stand-in that keeps what it was asked.
const pdfjs = vi.hoisted(() => ({ asked: [] as unknown[] }));
vi.mock("obsidian", async (importOriginal) => ({
	...(await importOriginal<typeof import("obsidian")>()),
	loadPdfJs: () =>
		Promise.resolve({
			getDocument: (src: unknown) => {
				pdfjs.asked.push(src);
				return { promise: Promise.resolve({ numPages: 1, getPage: () => Promise.resolve({ getTextContent: () => Promise.resolve({ items: [{ str: "Page one of the report.", hasEOL: true }] }), cleanup: () => undefined }), destroy: () => Promise.resolve() }) };
			},
		}),
}));

const PAGES: Record<string, string[]> = {
	"Papers/Harbour report.pdf": ["The harbour board met in March.", "The lighthouse keeper logs the storm at midnight.", "Repairs are planned for the autumn."],
	"Papers/Scan.pdf": ["", ""],
};

function opener(opened: string[]): PdfOpener {
	return (_app, file) => {
		opened.push(file.path);
		const pages = PAGES[file.path] ?? [];
		return Promise.resolve({ pageCount: pages.length, pageText: (n: number) => Promise.resolve(pages[n - 1] ?? "") });
	};
}

async function setup(opened: string[]): Promise<{ sources: PanelSources; app: Awaited<ReturnType<typeof createTestApp>>; changes: { n: number } }> {
	const app = await createTestApp({ files: { "Papers/Harbour report.pdf": "%PDF-1.7", "Papers/Scan.pdf": "%PDF-1.7", "Harbour notes.md": "# Harbour notes" } });
	const changes = { n: 0 };
	const sources = new PanelSources(document.body.createDiv(), asObsidianApp(app), {
		vaultSearch: () => undefined,
		store: () => undefined,
		sessionId: () => undefined,
		onChange: () => changes.n++,
		openPdf: opener(opened),
	});
	return { sources, app, changes };
}

describe("PDFs as sources in the panel", () => {
	it("@ suggests PDFs beside notes, named as PDFs", async () => {
		const app = await createTestApp({ files: { "Papers/Harbour report.pdf": "%PDF-1.7", "Harbour notes.md": "# Harbour notes" } });
		const found = suggestSources(asObsidianApp(app), "harbour", { vault: false });
		expect(found.map((c) => [c.label, c.detail])).toContainEqual(["Harbour report", "PDF in Papers/"]);
		expect(found.map((c) => c.label)).toContain("Harbour notes");
		expect(found.find((c) => c.label === "Harbour report")?.ref).toEqual({ type: "note", path: "Papers/Harbour report.pdf" });
	});

	it("@ finds PDFs and canvases in one pass over the vault's files (one scan per keystroke, not one per kind)", async () => {
		const app = asObsidianApp(await createTestApp({ files: { "Papers/Harbour report.pdf": "%PDF-1.7", "Maps/Harbour map.canvas": "{}", "Harbour notes.md": "# Harbour notes" } }));
		const scans = vi.spyOn(app.vault, "getFiles");
		const found = suggestSources(app, "harbour", { vault: false });
		expect(found.map((c) => c.detail)).toEqual(expect.arrayContaining(["PDF in Papers/", "Canvas in Maps/"]));
		expect(scans).toHaveBeenCalledTimes(1);
	});

	it("a PDF (or a canvas) dragged from the file explorer or as a link is attached like a note", async () => {
		const app = asObsidianApp(await createTestApp({ files: { "Papers/Harbour report.pdf": "%PDF-1.7", "Maps/Bees.canvas": "{}", "Photo.png": "x" } }));
		const data = new DataTransfer();
		data.setData("text/plain", ["obsidian://open?vault=V&file=Papers%2FHarbour%20report.pdf", "[[Bees.canvas]]", "[[Photo.png]]"].join("\n"));
		expect(dropRefs(app, data)).toEqual([
			{ type: "note", path: "Papers/Harbour report.pdf" },
			{ type: "note", path: "Maps/Bees.canvas" },
		]);
	});

	it("sends an attached PDF as one source, its pages as sections naming each page; read once, then from the cache", async () => {
		const opened: string[] = [];
		const { sources, changes } = await setup(opened);
		sources.add({ type: "note", path: "Papers/Harbour report.pdf" });
		const sent = await sources.sendSources("lighthouse");
		expect(sent).toEqual([
			{
				id: "Papers/Harbour report.pdf",
				name: "Harbour report",
				kind: "note",
				text: "## p. 1\n\nThe harbour board met in March.\n\n## p. 2\n\nThe lighthouse keeper logs the storm at midnight.\n\n## p. 3\n\nRepairs are planned for the autumn.\n",
			},
		]);
		// The preview finds it read; nothing is read again.
		const before = changes.n;
		expect(sources.previewSources().map((s) => s.id)).toEqual(["Papers/Harbour report.pdf"]);
		expect(opened).toEqual(["Papers/Harbour report.pdf"]);
		expect(changes.n).toBe(before);
	});

	it("a scanned PDF is said in a notice and sends nothing", async () => {
		clearNotices();
		const { sources } = await setup([]);
		sources.add({ type: "note", path: "Papers/Scan.pdf" });
		expect(await sources.sendSources("anything")).toEqual([]);
		await flush();
		expect(notices()).toContain("Scan.pdf has no text layer (a scanned PDF?): nothing of it can be sent.");
	});

	it("a PDF that cannot be read is read once per version of the file: each preview after finds the failure kept, a changed file is tried again", async () => {
		const opened: string[] = [];
		const app = await createTestApp({ files: { "Papers/Broken.pdf": "not a PDF" } });
		let changes = 0;
		const sources = new PanelSources(document.body.createDiv(), asObsidianApp(app), {
			vaultSearch: () => undefined,
			store: () => undefined,
			sessionId: () => undefined,
			onChange: () => changes++,
			openPdf: (_app, file) => {
				opened.push(file.path);
				return Promise.reject(new Error("Invalid PDF structure."));
			},
		});
		const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
		try {
			sources.add({ type: "note", path: "Papers/Broken.pdf" });
			for (let k = 0; k < 4; k++) {
				expect(sources.previewSources()).toEqual([]);
				await flush();
			}
			expect(opened).toEqual(["Papers/Broken.pdf"]);
			await expect(sources.sendSources("x")).rejects.toThrow("Invalid PDF structure.");
			expect(opened).toEqual(["Papers/Broken.pdf"]);
			// Written again (another size, a later time): tried again.
			const file = app.vault.getFileByPath("Papers/Broken.pdf")!;
			await app.vault.modify(file, "%PDF-1.7 mended");
			sources.previewSources();
			await flush();
			expect(opened).toEqual(["Papers/Broken.pdf", "Papers/Broken.pdf"]);
			expect(changes).toBeGreaterThan(0);
		} finally {
			logged.mockRestore();
		}
	});

	it("opens a PDF through the app's pdf.js with eval turned off (no code from the file runs)", async () => {
		pdfjs.asked.length = 0;
		const app = await createTestApp({ files: { "Papers/Report.pdf": "%PDF-1.7" } });
		const sources = new PanelSources(document.body.createDiv(), asObsidianApp(app), { vaultSearch: () => undefined, store: () => undefined, sessionId: () => undefined, onChange: () => undefined });
		sources.add({ type: "note", path: "Papers/Report.pdf" });
		expect((await sources.sendSources("x")).map((s) => s.text)).toEqual(["## p. 1\n\nPage one of the report.\n"]);
		expect(pdfjs.asked).toEqual([expect.objectContaining({ isEvalSupported: false })]);
	});
});
