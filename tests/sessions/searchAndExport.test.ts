import { describe, expect, it } from "vitest";
import { message, steppingClock } from "./helpers";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { snippetAround } from "../../src/sessions/search";
import { SessionManager } from "../../src/sessions/SessionManager";

async function twoSessions(): Promise<{ manager: SessionManager; older: string; newer: string }> {
	const manager = new SessionManager(new MemoryFileStore(), { now: steppingClock() });
	const older = (await manager.create()).id;
	await manager.appendMessage(older, message("user", "Tell me about Obsidian plugins", 1));
	await manager.appendMessage(older, message("assistant", "Plugins extend OBSIDIAN.", 2));
	await manager.setSummary(older, message("system", "They talked about obsidian.", 3));
	const newer = (await manager.create()).id;
	await manager.appendMessage(newer, message("user", "What is obsidian rock?", 4));
	return { manager, older, newer };
}

describe("search", () => {
	it("matches all message text case-insensitively, newest session first, without summaries", async () => {
		const { manager, older, newer } = await twoSessions();
		const hits = await manager.search("ObSiDiAn");
		expect(hits.map((h) => [h.sessionId, h.messageId, h.role])).toEqual([
			[newer, "m4", "user"],
			[older, "m1", "user"],
			[older, "m2", "assistant"],
		]);
		expect(hits[0]).toMatchObject({ snippet: "What is obsidian rock?", createdAt: message("user", "", 4).createdAt });
	});

	it("filters by role, searches summaries only when asked, and honours the limit", async () => {
		const { manager, older } = await twoSessions();
		expect((await manager.search("obsidian", { role: "assistant" })).map((h) => h.messageId)).toEqual(["m2"]);
		expect(await manager.search("obsidian", { role: "system" })).toMatchObject([{ sessionId: older, messageId: "m3", role: "system" }]);
		expect(await manager.search("obsidian", { limit: 2 })).toHaveLength(2);
		expect(await manager.search("obsidian", { limit: 0 })).toEqual([]);
		expect(await manager.search("   ")).toEqual([]);
		expect(await manager.search("no such words")).toEqual([]);
		// NUL separates messages internally; a query containing one must not match across messages.
		expect(await manager.search("obsidian\u0000")).toEqual(await manager.search("obsidian"));
		expect(await manager.search("plugins\u0000plugins")).toEqual([]);
	});

	it("sees messages updated after the first search", async () => {
		const { manager, newer } = await twoSessions();
		expect(await manager.search("basalt")).toEqual([]);
		await manager.updateMessage(newer, message("user", "What is basalt?", 4));
		expect((await manager.search("BASALT")).map((h) => h.messageId)).toEqual(["m4"]);
		expect(await manager.search("obsidian rock")).toEqual([]);
	});

	it("finds text whose lowercase form has another length", async () => {
		const manager = new SessionManager(new MemoryFileStore(), { now: steppingClock() });
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "İ".repeat(300) + " needle here " + "z".repeat(300), 1));
		const [hit] = await manager.search("NEEDLE");
		expect(hit?.snippet).toContain("needle here");
	});
});

describe("snippetAround", () => {
	it("keeps short text whole and on one line", () => {
		expect(snippetAround("a\n\nb  c", 2, 1)).toBe("a b c");
	});

	it("cuts long text around the match with ellipses", () => {
		const text = "x".repeat(300) + "NEEDLE" + "y".repeat(300);
		const snippet = snippetAround(text, 300, 6);
		expect(snippet.startsWith("…")).toBe(true);
		expect(snippet.endsWith("…")).toBe(true);
		expect(snippet).toContain("NEEDLE");
		expect(snippet.length).toBeLessThanOrEqual(162);
	});

	it("never splits a surrogate pair", () => {
		const text = "😀".repeat(200);
		for (const index of [0, 51, 100, 201]) {
			const snippet = snippetAround(text, index, 1).replace(/…/g, "");
			expect(snippet).toMatch(/^(?:😀)+$/u);
		}
	});
});

describe("exportMarkdown", () => {
	it("writes frontmatter and turns, marks stopped and failed answers, and leaves out the summary", async () => {
		const { manager, older } = await twoSessions();
		await manager.appendMessage(older, message("user", "Go on", 5));
		await manager.appendMessage(older, message("assistant", "Partial", 6, { cancelled: true }));
		await manager.appendMessage(older, message("assistant", "", 7, { error: "Server\nunreachable" }));
		await manager.appendMessage(older, message("user", "Still there?", 8, { error: "The request failed (network)." }));
		await manager.rename(older, 'A "quoted" title');
		const md = await manager.exportMarkdown(older);
		const [, front = "", body = ""] = md.split("---\n");
		expect(front).toContain('title: "A \\"quoted\\" title"\n');
		expect(front).toContain("messages: 6\n");
		expect(front).toContain("source: discover-chat\n");
		expect(front).toContain(`session: "${older}"\n`);
		expect(front).toMatch(/created: "\d{4}-\d\d-\d\dT[^"]*"\n/);
		expect(body).not.toContain("They talked about obsidian.");
		expect(body.match(/^## You$/gm)).toHaveLength(3);
		expect(body.match(/^## Assistant$/gm)).toHaveLength(3);
		expect(body).toContain("Partial\n\n*(Stopped.)*");
		expect(body).toContain("This answer failed: Server unreachable");
		expect(body).toContain("Still there?\n\n> [!warning] No answer: The request failed (network).");
	});

	it("leaves thinking out unless asked; asked, it is a folded callout no line of which escapes", async () => {
		const manager = new SessionManager(new MemoryFileStore(), { now: steppingClock() });
		const id = (await manager.create()).id;
		await manager.appendMessage(id, message("user", "Hi", 1));
		const thinking = "SCRATCH line one\n\n---\n# Not a heading\r\nlast";
		await manager.appendMessage(id, message("assistant", "Hello.", 2, { thinking, thinkingMs: 2400 }));
		const plain = await manager.exportMarkdown(id);
		expect(plain).not.toContain("SCRATCH");
		const md = await manager.exportMarkdown(id, { includeThinking: true });
		expect(md).toContain("## Assistant\n\n> [!note]- Thought for 2 s\n> SCRATCH line one\n>\n> ---\n> # Not a heading\n> last\n\nHello.\n");
		expect(md.match(/^# /gm)).toHaveLength(1);
	});
});
