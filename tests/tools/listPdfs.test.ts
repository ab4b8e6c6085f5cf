// list_notes shows the vault's PDFs where read_note can read them (a vault with a PDF reader: the
// app's), marked as PDFs, behind the same fences as notes (config folder, chats folder, excluded
// folders); a tag keeps only notes (a PDF has none). A vault that cannot read PDFs lists notes only.
import { describe, expect, it } from "vitest";
import { createVaultTools } from "../../src/tools";
import { MemoryVault } from "../../src/tools/memoryVault";
import { openPdfWith, type PdfReader } from "../../src/context/pdfSources";
import { fixtureBytes, nodePdfJs } from "../support/pdfjs";
import { CONFIG_DIR, SCOPE } from "./support";

const NOTES: Record<string, string> = {
	"Papers/Reading list.md": "# Reading list\n\n#research\n",
	"Notes/Plan.md": "# Plan\n",
};
const PDFS: Record<string, string> = {
	"Papers/Harbour ledger.pdf": "plain.pdf",
	"Papers/Old/Orchard.PDF": "two-columns.pdf",
	"Private/Secret.pdf": "plain.pdf",
	"Discover/Chats/Attached.pdf": "plain.pdf",
	".obsidian/Cached.pdf": "plain.pdf",
};

function listNotes(withReader: boolean) {
	const vault = new MemoryVault(NOTES, { configDir: CONFIG_DIR });
	for (const [path, name] of Object.entries(PDFS)) vault.writeBytes(path, fixtureBytes(name));
	const openPdf = async (path: string): Promise<PdfReader> => openPdfWith(nodePdfJs, new Uint8Array(vault.files.get(path)?.bytes ?? []));
	const { tools } = createVaultTools(withReader ? Object.assign(vault, { openPdf }) : vault, SCOPE, () => 1_000);
	const tool = tools.find((t) => t.name === "list_notes");
	if (!tool) throw new Error("no list_notes");
	return { tool, run: (args: Record<string, unknown>): Promise<string> => tool.run(args, { signal: new AbortController().signal }) };
}

const lines = (out: string): string[] => out.split("\n").filter((l) => l.startsWith("- "));

describe("list_notes with PDFs", () => {
	it("lists the PDFs read_note can read beside the notes, each marked as a PDF, none from a fenced folder", async () => {
		const { run } = listNotes(true);
		const out = await run({});
		expect(out.split("\n")[0]).toBe("2 notes and 2 PDFs:");
		expect(lines(out).map((l) => l.replace(/ \(.*$/, ""))).toEqual(["- Notes/Plan.md", "- Papers/Harbour ledger.pdf", "- Papers/Old/Orchard.PDF", "- Papers/Reading list.md"]);
		expect(out).toMatch(/^- Papers\/Harbour ledger\.pdf \(PDF, \d+(\.\d)? kB, modified 2026-01-01 00:00\)$/m);
		expect(out).not.toContain("Secret.pdf");
		expect(out).not.toContain("Attached.pdf");
		expect(out).not.toContain("Cached.pdf");
	});

	it("a folder lists its PDFs too; a tag lists notes only", async () => {
		const { run } = listNotes(true);
		const papers = await run({ folder: "Papers" });
		expect(papers.split("\n")[0]).toBe("1 note and 2 PDFs in Papers:");
		expect(lines(await run({ folder: "Papers/Old" }))).toHaveLength(1);
		expect((await run({ folder: "Papers/Old" })).split("\n")[0]).toBe("1 PDF in Papers/Old:");
		const tagged = await run({ tag: "research" });
		expect(tagged.split("\n")[0]).toBe("1 note tagged #research:");
		expect(tagged).not.toContain(".pdf");
		await expect(run({ folder: "Private" })).rejects.toThrow();
	});

	it("recent puts PDFs and notes in one order, newest first", async () => {
		const { run } = listNotes(true);
		const out = await run({ recent: true, limit: 2 });
		// The vault's clock: the PDFs were written after the notes, the last one first.
		expect(lines(out).map((l) => l.replace(/ \(.*$/, ""))).toEqual(["- Papers/Old/Orchard.PDF", "- Papers/Harbour ledger.pdf"]);
		expect(out.split("\n")[0]).toBe('2 notes and 2 PDFs, most recently modified first (the first 2; raise "limit" or narrow the folder for more):');
	});

	it("says the tool lists PDFs, and read_note reads them by pages", () => {
		expect(listNotes(true).tool.description).toContain("PDF");
		expect(listNotes(false).tool.description).not.toContain("PDF");
	});

	it("a vault that cannot read PDFs lists notes only, as before", async () => {
		const { run } = listNotes(false);
		const out = await run({});
		expect(out.split("\n")[0]).toBe("2 notes:");
		expect(out).not.toContain(".pdf");
		expect(await run({ folder: "Papers/Old" })).toBe("No notes in Papers/Old.");
	});
});
