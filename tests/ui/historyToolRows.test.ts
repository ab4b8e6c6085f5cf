// @vitest-environment happy-dom
// Tool calls in the history browser, over a real SessionManager: a saved result's row is named as
// the panel's tool card names its call ("Searched notes for “tide”", "Read Notes/Tides.md") rather
// than "Tool result"; an answer that only made calls is not an empty "Assistant" card; a search hit
// inside a tool result says so and names the call. The model's arguments stay plain text.
import { afterEach, describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp, flush, typeInto } from "../obsidian/harness";
import { until } from "../support/chatHarness";
import { HistoryModal } from "../../src/ui/history/HistoryModal";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import type { ChatMessage } from "../../src/core/types";
import { t } from "../../src/i18n";
import { fakeWorld } from "./fakes";
import { toolRowLabels } from "../../src/ui/history/toolRows";
import { STOPPED_BEFORE_RUN } from "../../src/chat/toolRound";

const toolRowLabelsOf = (session: { messages: ChatMessage[] }): string[] => [...toolRowLabels(session.messages).values()].map((l) => l.title);

afterEach(() => {
	document.body.empty();
});

let n = 0;
function msg(role: ChatMessage["role"], content: string, extra: Partial<ChatMessage> = {}): ChatMessage {
	n++;
	return { id: `h${n}`, role, content, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(), ...extra };
}

/** A chat where the model searched, read a note (one call failed), then answered. */
async function toolChat(sessions: SessionManager): Promise<string> {
	const { id } = await sessions.create();
	const calls = [
		{ id: "c1", name: "search_notes", arguments: { query: "tide" } },
		{ id: "c2", name: "read_note", arguments: { path: "Notes/Tides.md" } },
		{ id: "c3", name: "read_note", arguments: { path: "Notes/<b>Gone</b>.md" } },
	];
	const messages = [
		msg("user", "When is high tide?"),
		msg("assistant", "", { toolCalls: calls }),
		msg("tool", "Notes/Tides.md: high tide at 6:40 in the harbour", { toolCallId: "c1", name: "search_notes" }),
		msg("tool", "# Tides\n\nHigh tide at 6:40.", { toolCallId: "c2", name: "read_note" }),
		msg("tool", "No note at Notes/<b>Gone</b>.md", { toolCallId: "c3", name: "read_note", isError: true }),
		msg("assistant", "High tide is at 6:40."),
	];
	for (const m of messages) await sessions.appendMessage(id, m);
	return id;
}

async function open() {
	const app = await createTestApp();
	const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
	const id = await toolChat(sessions);
	const world = fakeWorld(asObsidianApp(app));
	const modal = new HistoryModal(asObsidianApp(app), world.host, sessions, { activeSessionId: undefined, onLoad: () => undefined, onToPrompt: () => undefined, search: { delayMs: 0 } });
	modal.open();
	await until(() => document.body.querySelector(".discover-chat-history-item") !== null, "the list");
	const all = (sel: string) => Array.from(document.body.querySelectorAll<HTMLElement>(`.discover-chat-history ${sel}`));
	return { id, modal, all };
}

describe("tool calls in the history browser", () => {
	it("a chat's tool results read like the panel's tool cards' titles, and an answer that only made calls is left out", async () => {
		const h = await open();
		h.all(".discover-chat-history-item")[0]!.click();
		await until(() => h.all(".discover-chat-history-message").length > 0, "the transcript");
		const roles = h.all(".discover-chat-history-message").map((el) => el.querySelector(".discover-chat-history-role")!.textContent);
		expect(roles).toEqual([t("message.you"), "Searched notes for “tide”", "Read Notes/Tides.md", "Read Notes/<b>Gone</b>.md", t("message.assistant")]);
		expect(roles).not.toContain(t("message.toolResult"));
		// Untrusted arguments stay text: no element came of them.
		expect(document.body.querySelector(".discover-chat-history b")).toBeNull();
		expect(h.all(".discover-chat-history-message-tool .discover-chat-history-tool-icon svg")).toHaveLength(3);
		h.modal.close();
	});

	it("a tool result is quoted as text (a note's heading is no heading here) and is not offered as a prompt", async () => {
		const h = await open();
		h.all(".discover-chat-history-item")[0]!.click();
		await until(() => h.all(".discover-chat-history-message").length > 0, "the transcript");
		await flush();
		const rows = h.all(".discover-chat-history-message-tool");
		expect(rows).toHaveLength(3);
		expect(rows[1]!.querySelector(".discover-chat-history-tool-result")?.textContent).toBe("# Tides\n\nHigh tide at 6:40.");
		expect(document.body.querySelector(".discover-chat-history h1")).toBeNull();
		for (const row of rows) expect(row.querySelector(".discover-chat-history-use")).toBeNull();
		expect(h.all(".discover-chat-history-message-user .discover-chat-history-use")).toHaveLength(1);
		h.modal.close();
	});

	it("a chat stopped before a call ran is previewed in the person's words, not the model's", async () => {
		const app = await createTestApp();
		const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
		const { id } = await sessions.create();
		await sessions.appendMessage(id, msg("user", "Make a summary note."));
		await sessions.appendMessage(id, msg("assistant", "", { toolCalls: [{ id: "s1", name: "create_note", arguments: { path: "S.md", content: "x" } }] }));
		await sessions.appendMessage(id, msg("tool", STOPPED_BEFORE_RUN, { toolCallId: "s1", name: "create_note", isError: true }));
		const modal = new HistoryModal(asObsidianApp(app), fakeWorld(asObsidianApp(app)).host, sessions, { activeSessionId: undefined, onLoad: () => undefined, onToPrompt: () => undefined, search: { delayMs: 0 } });
		modal.open();
		await until(() => document.body.querySelector(".discover-chat-history-item-preview") !== null, "the list");
		expect(document.body.querySelector(".discover-chat-history-item-preview")!.textContent).toBe(t("toolCard.stoppedBeforeRun"));
		modal.close();
	});

	it("a search hit inside a tool result says so and names the call; other hits do not", async () => {
		const h = await open();
		typeInto(document.body.querySelector<HTMLInputElement>(".discover-chat-history-search")!, "6:40");
		await until(() => h.all(".discover-chat-history-hit").length === 3, "three hits");
		const hits = h.all(".discover-chat-history-hit").map((el) => ({
			meta: el.querySelector(".discover-chat-history-item-meta")!.textContent ?? "",
			tool: el.querySelector(".discover-chat-history-hit-tool")?.textContent ?? null,
		}));
		expect(hits.map((x) => x.tool)).toEqual(["Searched notes for “tide”", "Read Notes/Tides.md", null]);
		expect(hits[0]!.meta.startsWith(`${t("history.inToolResult")} · `)).toBe(true);
		expect(hits[1]!.meta.startsWith(`${t("history.inToolResult")} · `)).toBe(true);
		expect(hits[2]!.meta.startsWith(`${t("message.assistant")} · `)).toBe(true);
		// A hit opens its row, named like the card.
		h.all(".discover-chat-history-hit")[1]!.click();
		await flush();
		await until(() => document.body.querySelector(".discover-chat-history-message.is-highlighted") !== null, "the hit");
		expect(document.body.querySelector(".discover-chat-history-message.is-highlighted .discover-chat-history-role")!.textContent).toBe("Read Notes/Tides.md");
		h.modal.close();
	});
});

describe("call ids that repeat across answers (made-up ids for servers that send none)", () => {
	it("each result is named by the call made just before it, in the transcript and in search hits", async () => {
		const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
		const { id } = await sessions.create();
		const turn = (query: string, found: string) => [
			msg("user", `Look for ${query}`),
			msg("assistant", "", { toolCalls: [{ id: "call_same", name: "search_notes", arguments: { query } }] }),
			msg("tool", found, { toolCallId: "call_same", name: "search_notes" }),
			msg("assistant", `Done with ${query}.`),
		];
		for (const m of [...turn("tide", "Tides.md: high tide at 6:40"), ...turn("moon", "Moon.md: full moon")]) await sessions.appendMessage(id, m);
		const labels = toolRowLabelsOf(await sessions.load(id));
		expect(labels).toEqual(["Searched notes for “tide”", "Searched notes for “moon”"]);
		const hits = await sessions.search(".md:");
		expect(hits.map((h) => h.tool?.arguments)).toEqual([{ query: "tide" }, { query: "moon" }]);
	});
});

describe("search hits carry their tool call (SessionManager.search)", () => {
	it("names the call a result answers, whether it failed, and nothing for other messages", async () => {
		const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
		await toolChat(sessions);
		const hits = await sessions.search("notes/");
		expect(hits.map((h) => [h.role, h.tool])).toEqual([
			["tool", { name: "search_notes", arguments: { query: "tide" } }],
			["tool", { name: "read_note", arguments: { path: "Notes/<b>Gone</b>.md" }, isError: true }],
		]);
		expect((await sessions.search("high tide is")).map((h) => "tool" in h)).toEqual([false]);
	});
});
