// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { asObsidianApp, clearNotices, createTestApp, flush, notices, pressKey, typeInto } from "../obsidian/harness";
import { HISTORY_PAGE_SIZE } from "../../src/ui/history/HistoryList";
import { historyStateFor, invalidateSessionList } from "../../src/ui/history/historyState";
import { TRANSCRIPT_PAGE_SIZE } from "../../src/ui/history/HistoryTranscript";
import { HistoryModal, type HistoryModalOptions } from "../../src/ui/history/HistoryModal";
import { fakeWorld, message } from "./fakes";
import { renderSpy } from "./renderSpy";

vi.mock("../../src/ui/safeMarkdown", async (original) => (await import("./renderSpy")).spiedSafeMarkdown(original));

afterEach(() => {
	renderSpy.hook = undefined;
	vi.useRealTimers();
	document.body.empty();
});

async function setup() {
	const app = await createTestApp();
	const world = fakeWorld(asObsidianApp(app));
	const s = world.sessions;
	const older = s.add("Gardening", [message("user", "How deep should tulips go?"), message("assistant", "About 15 cm deep.")], "2026-01-01T10:00:00.000Z");
	const newer = s.add("Physics", [message("user", "What is entropy?"), message("assistant", "A measure of disorder; tulips not included.")], "2026-01-02T10:00:00.000Z");
	const loaded: string[] = [];
	const prompts: string[] = [];
	const open = async (extra: Partial<HistoryModalOptions> = {}) => {
		const modal = new HistoryModal(asObsidianApp(app), world.host, s, {
			activeSessionId: undefined,
			onLoad: (id) => loaded.push(id),
			onToPrompt: (t) => prompts.push(t),
			...extra,
		});
		modal.open();
		await flush();
		await flush();
		return modal;
	};
	const el = (sel: string) => document.body.querySelector<HTMLElement>(`.discover-chat-history ${sel}`);
	const all = (sel: string) => Array.from(document.body.querySelectorAll<HTMLElement>(`.discover-chat-history ${sel}`));
	return { app, world, sessions: s, older, newer, loaded, prompts, open, el, all };
}

describe("history browser", () => {
	it("lists sessions newest first with date, count and preview, and shows the selected one's messages", async () => {
		const t = await setup();
		await t.open();
		const items = t.all(".discover-chat-history-item");
		expect(items.map((i) => i.querySelector(".discover-chat-history-item-title")!.textContent)).toEqual(["Physics", "Gardening"]);
		expect(items[0]!.textContent).toContain("2 messages");
		expect(items[0]!.textContent).toContain("tulips not included");
		items[1]!.click();
		await flush();
		expect(t.all(".discover-chat-history-message-text").map((e) => e.textContent)).toEqual(["How deep should tulips go?", "About 15 cm deep."]);
		expect(items[1]!.hasClass("is-selected")).toBe(true);
	});

	it("marks an answer a crash interrupted, and a stopped one, in the selected chat", async () => {
		const t = await setup();
		t.sessions.add("Crash", [message("user", "Tell me a story"), message("assistant", "Once upon a", { interrupted: true }), message("user", "Again"), message("assistant", "Once", { cancelled: true })], "2026-01-03T10:00:00.000Z");
		await t.open();
		t.all(".discover-chat-history-item")[0]!.click();
		await flush();
		expect(t.all(".discover-chat-message-interrupted").map((e) => e.textContent)).toEqual(["Interrupted"]);
		expect(t.all(".discover-chat-message-stopped").map((e) => e.textContent)).toEqual(["stopped"]);
	});

	it("reads every chat ahead of the first search once it has shown the list", async () => {
		const t = await setup();
		expect(t.sessions.warmCalls).toBe(0);
		await t.open();
		expect(t.all(".discover-chat-history-item")).toHaveLength(2);
		expect(t.sessions.warmCalls).toBe(1);
	});

	it("searches all message text after a 300 ms pause, and a hit opens its message", async () => {
		const t = await setup();
		await t.open();
		vi.useFakeTimers();
		const search = t.el(".discover-chat-history-search") as HTMLInputElement;
		typeInto(search, "tul");
		await vi.advanceTimersByTimeAsync(100);
		typeInto(search, "tulips");
		await vi.advanceTimersByTimeAsync(299);
		expect(t.sessions.searchCalls).toEqual([]);
		await vi.advanceTimersByTimeAsync(1);
		vi.useRealTimers();
		await flush();
		expect(t.sessions.searchCalls).toEqual(["tulips"]);
		const hits = t.all(".discover-chat-history-hit");
		expect(hits).toHaveLength(2);
		const gardenHit = hits.find((h) => h.dataset.sessionId === t.older.id)!;
		gardenHit.click();
		await flush();
		const highlighted = t.el(".discover-chat-history-message.is-highlighted");
		expect(highlighted?.textContent).toContain("How deep should tulips go?");
	});

	it("shows search hits and chat previews as words, without Markdown syntax, the match still marked", async () => {
		const t = await setup();
		t.sessions.add("Leaves", [message("user", "Why are leaves green?"), message("assistant", "Chlorophyll absorbs **red** and `blue` light; see [[Photosynthesis|the note]].")], "2026-01-03T10:00:00.000Z");
		await t.open({ search: { delayMs: 0 } });
		expect(t.all(".discover-chat-history-item-preview")[0]!.textContent).toBe("Chlorophyll absorbs red and blue light; see the note.");
		typeInto(t.el(".discover-chat-history-search") as HTMLInputElement, "red");
		await flush();
		await flush();
		const preview = t.el(".discover-chat-history-hit .discover-chat-history-item-preview")!;
		expect(preview.textContent).toBe("Chlorophyll absorbs red and blue light; see the note.");
		expect(Array.from(preview.querySelectorAll("mark")).map((m) => m.textContent)).toEqual(["red"]);
	});

	it("titles every hit with its chat, even when the list was not loaded yet", async () => {
		const t = await setup();
		const first = await t.open({ search: { delayMs: 0 } });
		typeInto(t.el(".discover-chat-history-search") as HTMLInputElement, "entropy");
		await flush();
		await flush();
		first.close();
		invalidateSessionList(historyStateFor(t.world.host));
		await t.open();
		await flush();
		expect(t.all(".discover-chat-history-hit .discover-chat-history-item-title").map((e) => e.textContent)).toEqual(["Physics"]);
	});

	it("never lets an older, slower search replace newer results", async () => {
		const t = await setup();
		await t.open({ search: { delayMs: 0 } });
		t.sessions.holdSearches = true;
		const search = t.el(".discover-chat-history-search") as HTMLInputElement;
		typeInto(search, "entropy");
		await flush();
		typeInto(search, "tulips");
		await flush();
		const [old, fresh] = t.sessions.heldSearches;
		fresh!.resolve([]);
		await flush();
		old!.resolve([]);
		await flush();
		const sessionsShown = t.all(".discover-chat-history-hit").map((h) => h.dataset.messageId);
		const tulipMessages = [...t.sessions.sessions.values()].flatMap((s) => s.messages).filter((m) => m.content.includes("tulips")).map((m) => m.id);
		expect(sessionsShown.sort()).toEqual(tulipMessages.sort());
	});

	it("keeps selection and query across close and reopen, and caches the list for 10 s", async () => {
		const t = await setup();
		const first = await t.open({ search: { delayMs: 0 } });
		t.all(".discover-chat-history-item")[1]!.click();
		await flush();
		typeInto(t.el(".discover-chat-history-search") as HTMLInputElement, "entropy");
		await flush();
		await flush();
		first.close();
		const listCalls = t.sessions.listCalls;
		await t.open();
		expect((t.el(".discover-chat-history-search") as HTMLInputElement).value).toBe("entropy");
		expect(t.all(".discover-chat-history-hit")).toHaveLength(1);
		expect(t.el(".discover-chat-history-session-title")?.textContent).toBe("Gardening");
		expect(t.sessions.listCalls).toBe(listCalls);
	});

	it("restores both scroll positions on reopen, and a newly selected chat opens at its top", async () => {
		const t = await setup();
		const long = Array.from({ length: 40 }, (_, i) => message(i % 2 ? "assistant" : "user", `Line ${i}`));
		const third = t.sessions.add("Long", long, "2026-01-03T10:00:00.000Z");
		const first = await t.open();
		t.all(".discover-chat-history-item")[0]!.click();
		await flush();
		const list = t.el(".discover-chat-history-list")!;
		const messages = () => t.el(".discover-chat-history-messages")!;
		list.scrollTop = 37;
		list.dispatchEvent(new Event("scroll"));
		messages().scrollTop = 420;
		messages().dispatchEvent(new Event("scroll"));
		first.close();
		const second = await t.open();
		expect(t.el(".discover-chat-history-session-title")?.textContent).toBe(third.title);
		expect(t.el(".discover-chat-history-list")!.scrollTop).toBe(37);
		expect(messages().scrollTop).toBe(420);
		// Another chat starts at its top; reopening then must not apply the first chat's position.
		t.all(".discover-chat-history-item")[1]!.click();
		await flush();
		second.close();
		await t.open();
		expect(t.el(".discover-chat-history-session-title")?.textContent).toBe("Physics");
		expect(messages().scrollTop).toBe(0);
	});

	it("keeps the saved scroll positions when the browser reports a scroll after the history closed", async () => {
		const t = await setup();
		t.sessions.add("Long", Array.from({ length: 40 }, (_, i) => message(i % 2 ? "assistant" : "user", `Line ${i}`)), "2026-01-03T10:00:00.000Z");
		const first = await t.open();
		t.all(".discover-chat-history-item")[0]!.click();
		await flush();
		const list = t.el(".discover-chat-history-list")!;
		const transcript = t.el(".discover-chat-history-messages")!;
		list.scrollTop = 37;
		list.dispatchEvent(new Event("scroll"));
		transcript.scrollTop = 420;
		transcript.dispatchEvent(new Event("scroll"));
		first.close();
		// Chromium delivers a scroll event at the next frame, after Esc closed the modal: on the
		// detached elements, whose scrollTop then reads 0.
		for (const el of [list, transcript]) {
			el.scrollTop = 0;
			el.dispatchEvent(new Event("scroll"));
		}
		await t.open();
		await vi.waitFor(() => expect(t.el(".discover-chat-history-messages.is-restoring")).toBeNull());
		expect(t.el(".discover-chat-history-list")!.scrollTop).toBe(37);
		expect(t.el(".discover-chat-history-messages")!.scrollTop).toBe(420);
	});

	it("shows a reopened chat only once it is at its saved position, its Markdown in view rendered", async () => {
		const t = await setup();
		t.sessions.add("Long", Array.from({ length: 40 }, (_, i) => message(i % 2 ? "assistant" : "user", `Line **${i}**`)), "2026-01-03T10:00:00.000Z");
		const first = await t.open();
		t.all(".discover-chat-history-item")[0]!.click();
		await flush();
		const before = t.el(".discover-chat-history-messages")!;
		before.scrollTop = 420;
		before.dispatchEvent(new Event("scroll"));
		first.close();
		// Markdown renders when the test says so, as a slow renderer would.
		const held: (() => void)[] = [];
		renderSpy.hook = (real, ...args) => new Promise<void>((resolve) => held.push(() => void real(...args).then(resolve)));
		try {
			await t.open();
			const transcript = t.el(".discover-chat-history-messages")!;
			// Laid out at the saved position, but hidden while the Markdown in view is not rendered.
			expect(transcript.scrollTop).toBe(420);
			expect(transcript.hasClass("is-restoring")).toBe(true);
			expect(held.length).toBeGreaterThan(0);
			for (const release of held.splice(0)) release();
			await vi.waitFor(() => expect(transcript.hasClass("is-restoring")).toBe(false));
			// Shown at the saved position, rendered: nothing left to move it.
			expect(transcript.scrollTop).toBe(420);
			expect(transcript.querySelector(".discover-chat-history-message-text strong")?.textContent).toBe("0");
		} finally {
			renderSpy.hook = undefined;
		}
	});

	it("shows a thousand chats page by page, and reopens with as many shown as before", async () => {
		const t = await setup();
		for (let i = 0; i < 1000; i++) t.sessions.add(`Chat ${i}`, [message("user", `Question ${i}`)], new Date(Date.UTC(2027, 0, 1, 0, 0, i)).toISOString());
		const modal = await t.open();
		expect(t.all(".discover-chat-history-item")).toHaveLength(HISTORY_PAGE_SIZE);
		expect(t.all(".discover-chat-history-item-title")[0]!.textContent).toBe("Chat 999");
		const list = t.el(".discover-chat-history-list")!;
		let height = 5000;
		Object.defineProperty(list, "scrollHeight", { get: () => height, configurable: true });
		Object.defineProperty(list, "clientHeight", { get: () => 500, configurable: true });
		list.scrollTop = 1000; // far from the end: nothing more yet
		list.dispatchEvent(new Event("scroll"));
		expect(t.all(".discover-chat-history-item")).toHaveLength(HISTORY_PAGE_SIZE);
		list.scrollTop = 4200; // near the end
		list.dispatchEvent(new Event("scroll"));
		expect(t.all(".discover-chat-history-item")).toHaveLength(2 * HISTORY_PAGE_SIZE);
		height = 10000;
		// The arrow keys reach past the last item shown.
		const items = t.all(".discover-chat-history-item");
		items.at(-1)!.focus();
		pressKey(items.at(-1)!, "ArrowDown");
		expect(t.all(".discover-chat-history-item")).toHaveLength(3 * HISTORY_PAGE_SIZE);
		expect(document.activeElement?.querySelector(".discover-chat-history-item-title")?.textContent).toBe(`Chat ${999 - 2 * HISTORY_PAGE_SIZE}`);
		modal.close();
		await t.open();
		expect(t.all(".discover-chat-history-item")).toHaveLength(3 * HISTORY_PAGE_SIZE);
		expect(t.el(".discover-chat-history-list")!.scrollTop).toBe(4200);
	});

	it("shows a long chat's messages page by page, down to a search hit, and as many again on reopen", async () => {
		const t = await setup();
		const msgs = Array.from({ length: 1000 }, (_, i) => message(i % 2 ? "assistant" : "user", `Line ${i}${i === 700 ? " needle" : ""}`));
		t.sessions.add("Very long", msgs, "2026-02-01T00:00:00.000Z");
		const modal = await t.open({ search: { delayMs: 0 } });
		t.all(".discover-chat-history-item")[0]!.click();
		await flush();
		expect(t.all(".discover-chat-history-message")).toHaveLength(TRANSCRIPT_PAGE_SIZE);
		const transcript = t.el(".discover-chat-history-messages")!;
		Object.defineProperty(transcript, "scrollHeight", { get: () => 4000, configurable: true });
		Object.defineProperty(transcript, "clientHeight", { get: () => 500, configurable: true });
		transcript.scrollTop = 1000; // far from the end
		transcript.dispatchEvent(new Event("scroll"));
		expect(t.all(".discover-chat-history-message")).toHaveLength(TRANSCRIPT_PAGE_SIZE);
		transcript.scrollTop = 3000; // near the end
		transcript.dispatchEvent(new Event("scroll"));
		expect(t.all(".discover-chat-history-message")).toHaveLength(2 * TRANSCRIPT_PAGE_SIZE);
		typeInto(t.el(".discover-chat-history-search") as HTMLInputElement, "needle");
		await flush();
		await flush();
		t.el(".discover-chat-history-hit")!.click();
		await flush();
		const hit = t.el(".discover-chat-history-message.is-highlighted");
		expect(hit?.textContent).toContain("Line 700 needle");
		const shown = t.all(".discover-chat-history-message").length;
		expect(shown).toBeGreaterThan(700);
		expect(shown).toBeLessThan(1000);
		modal.close();
		await t.open();
		expect(t.all(".discover-chat-history-message")).toHaveLength(shown);
	});

	it("loads a session into the panel; Copy and To prompt act on one message", async () => {
		const t = await setup();
		const modal = await t.open();
		t.all(".discover-chat-history-item")[0]!.click();
		await flush();
		const copied: string[] = [];
		Object.defineProperty(navigator, "clipboard", { value: { writeText: (text: string) => (copied.push(text), Promise.resolve()) }, configurable: true });
		t.all('[aria-label="Copy message"]')[1]!.click();
		expect(copied).toEqual(["A measure of disorder; tulips not included."]);
		t.el(".discover-chat-history-use")!.click();
		expect(t.prompts).toEqual(["What is entropy?"]);
		await t.open();
		t.all(".discover-chat-history-actions button").find((b) => b.textContent === "Load")!.click();
		expect(t.loaded).toEqual([t.newer.id]);
		expect(document.body.querySelector(".discover-chat-history")).toBeNull();
		modal.close();
	});

	it("shows every message as the same card, and says \"Use as prompt\" in words", async () => {
		const t = await setup();
		const modal = await t.open();
		t.all(".discover-chat-history-item")[0]!.click();
		await flush();
		const cards = t.all(".discover-chat-history-message");
		expect(cards.length).toBeGreaterThan(1);
		// Not the panel's role styles (a tinted block for the person, a bare page for answers).
		expect(cards.filter((c) => c.hasClass("discover-chat-message-user") || c.hasClass("discover-chat-message-assistant"))).toEqual([]);
		const use = t.all(".discover-chat-history-use");
		expect(use).toHaveLength(cards.length);
		expect(use.every((b) => b.textContent === "Use as prompt")).toBe(true);
		modal.close();
	});

	it("deletes only after confirmation", async () => {
		const t = await setup();
		const onDeleted: string[] = [];
		await t.open({ onDeleted: (id) => onDeleted.push(id) });
		t.all(".discover-chat-history-item")[0]!.click();
		await flush();
		const del = () => t.all(".discover-chat-history-actions button").find((b) => b.textContent === "Delete")!;
		// Quiet beside Load until confirmed: no warning or call-to-action style in the toolbar.
		expect(del().hasClass("mod-warning") || del().hasClass("mod-cta")).toBe(false);
		expect(del().hasClass("discover-chat-history-delete")).toBe(true);
		del().click();
		await flush();
		(document.body.querySelector(".discover-chat-confirm .modal-button-container button:last-child") as HTMLElement).click();
		await flush();
		expect(t.sessions.sessions.has(t.newer.id)).toBe(true);
		del().click();
		await flush();
		(document.body.querySelector(".discover-chat-confirm .mod-warning") as HTMLElement).click();
		await flush();
		await flush();
		expect(t.sessions.sessions.has(t.newer.id)).toBe(false);
		expect(onDeleted).toEqual([t.newer.id]);
		expect(t.all(".discover-chat-history-item")).toHaveLength(1);
	});

	it("exports a session as a note in the export folder and opens it", async () => {
		const t = await setup();
		await t.open();
		t.all(".discover-chat-history-item")[0]!.click();
		await flush();
		t.all(".discover-chat-history-actions button").find((b) => b.textContent === "Export to note")!.click();
		await flush();
		await flush();
		const file = t.app.vault.getFileByPath("Discover/Exports/Physics.md");
		expect(file).not.toBeNull();
		expect(await t.app.vault.read(file!)).toContain("What is entropy?");
		expect(t.app.workspace.getActiveFile()?.path).toBe("Discover/Exports/Physics.md");
	});

	it("leaves the model's thinking out of an export unless the setting asks for it", async () => {
		const t = await setup();
		t.sessions.add("Thinker", [message("user", "Why is the sky blue?"), message("assistant", "Rayleigh scattering.", { thinking: "PRIVATE-SCRATCH about light", thinkingMs: 12_000 })], "2026-01-03T10:00:00.000Z");
		const exportFirst = async () => {
			await t.open();
			t.all(".discover-chat-history-item")[0]!.click();
			await flush();
			t.all(".discover-chat-history-actions button").find((b) => b.textContent === "Export to note")!.click();
			await flush();
			await flush();
		};
		await exportFirst();
		const plain = await t.app.vault.read(t.app.vault.getFileByPath("Discover/Exports/Thinker.md")!);
		expect(plain).toContain("Rayleigh scattering.");
		expect(plain).not.toContain("PRIVATE-SCRATCH");

		t.world.host.settings.includeThinkingInExports = true;
		await exportFirst();
		const withThinking = await t.app.vault.read(t.app.vault.getFileByPath("Discover/Exports/Thinker 2.md")!);
		expect(withThinking).toContain("> [!note]- Thought for 12 s\n> PRIVATE-SCRATCH about light\n\nRayleigh scattering.");
	});

	it("renames a session in place", async () => {
		const t = await setup();
		const renamed: string[] = [];
		await t.open({ onRenamed: (id, title) => renamed.push(`${id}:${title}`) });
		t.all(".discover-chat-history-item")[0]!.click();
		await flush();
		t.all(".discover-chat-history-actions button").find((b) => b.textContent === "Rename")!.click();
		const input = t.el(".discover-chat-history-session-title input") as HTMLInputElement;
		input.value = "Thermodynamics";
		pressKey(input, "Enter");
		await flush();
		await flush();
		expect(t.sessions.sessions.get(t.newer.id)!.title).toBe("Thermodynamics");
		expect(renamed).toEqual([`${t.newer.id}:Thermodynamics`]);
		expect(t.all(".discover-chat-history-item-title").map((e) => e.textContent)).toContain("Thermodynamics");
	});

	it("a rename or delete that fails says so and changes nothing on screen", async () => {
		const t = await setup();
		await t.open();
		t.all(".discover-chat-history-item")[0]!.click();
		await flush();
		t.sessions.rename = () => Promise.reject(new Error("read-only vault"));
		t.sessions.delete = () => Promise.reject(new Error("read-only vault"));
		clearNotices();
		t.all(".discover-chat-history-actions button").find((b) => b.textContent === "Rename")!.click();
		const input = t.el(".discover-chat-history-session-title input") as HTMLInputElement;
		input.value = "Thermodynamics";
		pressKey(input, "Enter");
		await flush();
		expect(t.el(".discover-chat-history-session-title")!.textContent).toBe("Physics");
		t.all(".discover-chat-history-actions button").find((b) => b.textContent === "Delete")!.click();
		await flush();
		(document.body.querySelector(".discover-chat-confirm .mod-warning") as HTMLElement).click();
		await flush();
		await flush();
		expect(notices()).toEqual(["Couldn't rename the chat: read-only vault", "Couldn't delete the chat: read-only vault"]);
		expect(t.all(".discover-chat-history-item")).toHaveLength(2);
		expect(t.el(".discover-chat-history-session-title")!.textContent).toBe("Physics");
	});

	it("moves between chats with the arrow keys", async () => {
		const t = await setup();
		await t.open();
		const search = t.el(".discover-chat-history-search")!;
		pressKey(search, "ArrowDown");
		expect(document.activeElement?.textContent).toContain("Physics");
		pressKey(document.activeElement!, "ArrowDown");
		expect(document.activeElement?.textContent).toContain("Gardening");
		pressKey(document.activeElement!, "ArrowUp");
		expect(document.activeElement?.textContent).toContain("Physics");
	});

	it("closes on Escape", async () => {
		const t = await setup();
		await t.open();
		pressKey(window, "Escape");
		expect(document.body.querySelector(".discover-chat-history")).toBeNull();
	});
});
