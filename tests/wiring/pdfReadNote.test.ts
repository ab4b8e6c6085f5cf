// @vitest-environment happy-dom
// read_note on PDFs through the panel's real engine (createChatRuntime over the test vault): the
// model's call reads the pages it names through the app's own PDF opener, with `loadPdfJs()` handing
// over pdfjs-dist (the pdf.js Obsidian ships); the result names its pages, and a result larger
// than its share of the budget is fitted like any read's, its passages keeping their pages.
import { describe, expect, it, vi } from "vitest";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { asObsidianApp, createTestApp } from "../obsidian/harness";
import { call, ScriptedToolAdapter } from "../support/toolScript";
import { fixtureBytes, nodePdfJs } from "../support/pdfjs";
import { createChatRuntime } from "../../src/wiring/chatRuntime";
import type { DiscoverHost } from "../../src/ui/host";
import type { RecordedToolRequest } from "../support/toolScript";
import { testSettings } from "../ui/fakes";

vi.mock("obsidian", async (importOriginal) => ({
	...(await importOriginal<typeof import("obsidian")>()),
	loadPdfJs: () => Promise.resolve(nodePdfJs),
}));

/** A PDF of `pages` pages of about 600 characters each, "zanzibarite" on page `marked` only (pdf-lib, Helvetica). */
async function longPdf(pages: number, marked: number): Promise<Uint8Array> {
	const doc = await PDFDocument.create();
	const font = await doc.embedFont(StandardFonts.Helvetica);
	for (let n = 1; n <= pages; n++) {
		const page = doc.addPage([595, 842]);
		const lines = Array.from({ length: 10 }, (_, k) => `Page ${n}, line ${k + 1}: the committee reviewed the harbour works.`);
		if (n === marked) lines.splice(5, 0, "The surveyor found zanzibarite in the cliff below the lighthouse.");
		lines.forEach((line, k) => page.drawText(line, { x: 72, y: 770 - k * 16, size: 11, font }));
	}
	return doc.save();
}

async function runtimeWith(script: ConstructorParameters<typeof ScriptedToolAdapter>[0], settings = testSettings({ includeActiveNote: false })) {
	const app = await createTestApp({ files: { "Notes/Plan.md": "# Plan\n" } });
	await app.vault.createFolder("Papers");
	const add = async (path: string, bytes: Uint8Array): Promise<void> => {
		await app.vault.createBinary(path, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
	};
	await add("Papers/Harbour ledger.pdf", fixtureBytes("plain.pdf"));
	await add("Papers/Scan.pdf", fixtureBytes("scanned.pdf"));
	await add("Papers/Long report.pdf", await longPdf(40, 23));
	const host: DiscoverHost = { app: asObsidianApp(app), settings, saveSettings: () => Promise.resolve() };
	const runtime = await createChatRuntime(host, () => undefined, { ask: () => Promise.resolve({ kind: "deny" }) });
	const adapter = new ScriptedToolAdapter(script);
	runtime.chat.setAdapter(adapter);
	await runtime.chat.newSession();
	return { runtime, adapter };
}

/** What the model was sent as the result of its call `id`. */
function resultOf(requests: readonly RecordedToolRequest[], id: string): string {
	for (const r of requests) {
		const found = r.messages.find((m) => m.role === "tool" && m.toolCallId !== undefined && r.messages.some((a) => a.toolCalls?.some((c) => c.id === m.toolCallId && c.serverId === id)));
		if (found) return found.content;
	}
	throw new Error(`no result for ${id}`);
}

describe("read_note on a PDF, through the panel's engine", () => {
	it('reads "pages": "2-3" through the pdf.js the app loads, naming each page', async () => {
		const { runtime, adapter } = await runtimeWith((_req, i) => (i === 0 ? { calls: [call("read_note", { path: "Papers/Harbour ledger.pdf", pages: "2-3" }, { id: "r1" })] } : { text: "Page 2 has marrowstone." }));
		const answer = await runtime.chat.sendMessage("What is the word on page 2?");
		expect(answer.content).toBe("Page 2 has marrowstone.");
		const result = resultOf(adapter.chatRequests, "r1");
		expect(result.startsWith("Papers/Harbour ledger.pdf (PDF, pages 2-3 of 5).")).toBe(true);
		expect([...result.matchAll(/^## p\. (\d+)$/gm)].map((m) => m[1])).toEqual(["2", "3"]);
		expect(result).toContain("marrowstone");
		expect(result).not.toContain("quillfeather");
	});

	it("a bad range and a scanned PDF reach the model as messages that say what to do", async () => {
		const { runtime, adapter } = await runtimeWith((_req, i) =>
			i === 0 ? { calls: [call("read_note", { path: "Papers/Harbour ledger.pdf", pages: "9-12" }, { id: "bad" }), call("read_note", { path: "Papers/Scan.pdf" }, { id: "scan" })] } : { text: "Done." },
		);
		await runtime.chat.sendMessage("Read them");
		expect(resultOf(adapter.chatRequests, "bad")).toContain("Papers/Harbour ledger.pdf has 5 pages; page 9 is past its end. Ask for pages 1-5 or fewer.");
		expect(resultOf(adapter.chatRequests, "scan")).toContain("This PDF has no text layer");
	});

	it("a result larger than its share is fitted like any read: the passage the question is about stays, under its page", async () => {
		const settings = testSettings({ includeActiveNote: false, maxPromptTokens: 2_500, reservedResponseTokens: 256 });
		const { runtime, adapter } = await runtimeWith((_req, i) => (i === 0 ? { calls: [call("read_note", { path: "Papers/Long report.pdf" }, { id: "all" })] } : { text: "Found it." }), settings);
		await runtime.chat.sendMessage("Where did the surveyor find zanzibarite?");
		const result = resultOf(adapter.chatRequests, "all");
		// The tool's own part (whole pages up to 16,000 characters) is more than the share: it was fitted.
		expect(result.length).toBeLessThan(16_000 / 2);
		expect(result).toContain("The surveyor found zanzibarite in the cliff below the lighthouse.");
		const at = result.indexOf("zanzibarite");
		const pages = [...result.slice(0, at).matchAll(/p\. (\d+)/g)].map((m) => m[1]);
		expect(pages[pages.length - 1]).toBe("23");
	});
});
