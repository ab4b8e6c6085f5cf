// @vitest-environment happy-dom
// Edits keep every byte they do not change. The panel's engine
// (createChatRuntime) over the test vault, against a local OpenAI-compatible server that makes the
// edit_note calls. A Latin-1 note is refused for editing and its bytes stay; a CRLF note with a BOM
// is edited like any other (its heading found, a multi-line passage replaced) and keeps its line
// ends and BOM; Revert gives back the exact bytes (their SHA-256).
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp } from "../obsidian/harness";
import { ProviderServer } from "../support/providerServer";
import { baseUrlFor } from "../support/providerStreams";
import { serveToolSteps } from "../support/toolServer";
import type { StreamedCall } from "../support/toolStreams";
import { createChatRuntime } from "../../src/wiring/chatRuntime";
import type { DiscoverHost } from "../../src/ui/host";
import type { ChatEvent } from "../../src/ui/ports";
import type { ToolCard } from "../../src/chat/toolCard";
import { testSettings } from "../ui/fakes";

let server: ProviderServer;
beforeAll(async () => {
	server = await ProviderServer.start();
});
afterAll(() => server.close());

let n = 0;
const editCall = (args: Record<string, unknown>): StreamedCall => ({ id: `call_${++n}`, name: "edit_note", args: JSON.stringify(args) });
const sha256 = (bytes: ArrayBuffer): string => createHash("sha256").update(new Uint8Array(bytes)).digest("hex");

async function engineWith(path: string, bytes: Uint8Array, steps: (StreamedCall[] | string)[]) {
	serveToolSteps(server, "openai", steps);
	const app = await createTestApp();
	await app.vault.createBinary(path, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
	const settings = testSettings({ provider: "openai", baseUrl: baseUrlFor("openai", server.url), model: "m", includeActiveNote: false });
	const host: DiscoverHost = { app: asObsidianApp(app), settings, saveSettings: () => Promise.resolve() };
	const events: ChatEvent[] = [];
	const runtime = await createChatRuntime(host, (e) => events.push(e), { ask: () => Promise.resolve({ kind: "once" }) });
	const cards = (state: "done" | "failed"): ToolCard[] => events.flatMap((e) => (e.type === "tool" && e.card.state === state && e.card.name === "edit_note" ? [e.card] : []));
	const file = () => app.vault.getFileByPath(path)!;
	const hash = async () => sha256(await app.vault.readBinary(file()));
	const text = async () => new TextDecoder("utf-8", { ignoreBOM: true }).decode(await app.vault.readBinary(file()));
	await runtime.chat.newSession();
	return { runtime, cards, hash, text, app };
}

describe("a note that is not UTF-8 (Latin-1)", () => {
	// "é" and "è" are one byte each in Latin-1 (0xE9, 0xE8): not valid UTF-8.
	const LATIN1 = new Uint8Array(Buffer.from("# Recettes\n\nCafé crème, pâte brisée.\n\n## À faire\n\nÉté, hiver.\n", "latin1"));

	for (const args of [
		{ path: "Latin.md", mode: "append", text: "Ajouté." },
		{ path: "Latin.md", mode: "insert_under_heading", heading: "Recettes", text: "- tarte" },
		{ path: "Latin.md", mode: "replace", old_text: "# Recettes", new_text: "# Cuisine" },
	]) {
		it(`${String(args.mode)}: refused with an error that says why and what to do; nothing is written, the bytes stay`, async () => {
			const e = await engineWith("Latin.md", LATIN1, [[editCall(args)], "I could not edit it."]);
			const before = await e.hash();
			await e.runtime.chat.sendMessage("Add a line");
			const failed = e.cards("failed");
			expect(failed).toHaveLength(1);
			expect(failed[0]!.error).toMatch(/Latin\.md is not valid UTF-8 text/);
			expect(failed[0]!.error).toMatch(/convert/i);
			expect(e.cards("done")).toEqual([]);
			expect(await e.hash()).toBe(before);
			expect(e.runtime.tools!.canRevert(failed[0]!.id)).toBe(false);
		});
	}
});

describe("a CRLF note with a BOM", () => {
	const CRLF = "\uFEFF# Plan\r\n\r\nLine one\r\nLine two\r\n\r\n## Next steps\r\n\r\n- first\r\n\r\n## Later\r\n\r\n- someday\r\n";
	const bytes = new TextEncoder().encode(CRLF);

	it("insert_under_heading finds the heading, a multi-line replace matches across CRLF; line ends and BOM stay; Revert restores the exact bytes", async () => {
		const e = await engineWith("Plan.md", bytes, [
			[editCall({ path: "Plan.md", mode: "insert_under_heading", heading: "Next steps", text: "- second" })],
			[editCall({ path: "Plan.md", mode: "replace", old_text: "Line one\nLine two", new_text: "Line 1\nLine 2\nLine 3" })],
			"Done.",
		]);
		const original = await e.hash();
		await e.runtime.chat.sendMessage("Tidy the plan");
		expect(e.cards("failed")).toEqual([]);
		const [inserted, replaced] = e.cards("done");
		expect(await e.text()).toBe("\uFEFF# Plan\r\n\r\nLine 1\r\nLine 2\r\nLine 3\r\n\r\n## Next steps\r\n\r\n- first\r\n- second\r\n\r\n## Later\r\n\r\n- someday\r\n");
		const raw = new Uint8Array(await e.app.vault.readBinary(e.app.vault.getFileByPath("Plan.md")!));
		expect([...raw.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);

		// Undone newest first: each Revert gives back the bytes before its edit.
		await expect(e.runtime.tools!.revert(replaced!.id)).resolves.toEqual({ ok: true });
		await expect(e.runtime.tools!.revert(inserted!.id)).resolves.toEqual({ ok: true });
		expect(await e.hash()).toBe(original);
	});

	it("append keeps the note's CRLF, and read_note shows the note without BOM or CR", async () => {
		const e = await engineWith("Plan.md", bytes, [
			[{ id: "call_r", name: "read_note", args: JSON.stringify({ path: "Plan.md", heading: "Next steps" }) }],
			[editCall({ path: "Plan.md", mode: "append", text: "Tail one\nTail two" })],
			"Done.",
		]);
		const original = await e.hash();
		await e.runtime.chat.sendMessage("Add a tail");
		const read = e.runtime.chat.messages.find((m) => m.role === "tool" && m.name === "read_note")!.content;
		expect(read).toContain("## Next steps\n\n- first");
		expect(read).not.toMatch(/[\r\uFEFF]/);
		expect(await e.text()).toBe(`${CRLF}\r\nTail one\r\nTail two\r\n`);
		await expect(e.runtime.tools!.revert(e.cards("done")[0]!.id)).resolves.toEqual({ ok: true });
		expect(await e.hash()).toBe(original);
	});
});
