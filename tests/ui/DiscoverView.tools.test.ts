// @vitest-environment happy-dom
// Tool calls in the panel: live cards from the engine's `tool` events (one per call id, updated in
// place, placed where the call happens in the answer), saved calls after a reload, Revert, the
// permission prompt mounted in its card, the per-chat tools switch and the "no tools" note.
import { afterEach, describe, expect, it } from "vitest";
import { flush, pressKey, typeInto } from "../obsidian/harness";
import type { ToolCard } from "../../src/chat/toolCard";
import { TOOLS_UNSUPPORTED_WARNING } from "../../src/chat/toolLoop";
import type { ChatMessage, ToolCall } from "../../src/core/types";
import { t } from "../../src/i18n";
import type { ChatEvent } from "../../src/ui/ports";
import type { AccessDecision, PanelHooks, RevertOutcome, ToolsPort } from "../../src/ui/toolsPort";
import { engineText } from "../../src/ui/panel/engineText";
import { ARGS_SHOWN_CHARS, RESULT_SHOWN_CHARS } from "../../src/ui/panel/tools/ToolCardView";
import type { ShowPermissionPrompt } from "../../src/ui/panel/tools/ToolCards";
import { PAGE_SIZE } from "../../src/ui/panel/MessageList";
import { SLASH_COMMANDS } from "../../src/ui/panel/slashCommands";
import { message } from "./fakes";
import { mountView, type Mounted } from "./mountView";

let mounted: Mounted | undefined;
afterEach(async () => {
	mounted?.leaf.detach();
	await flush();
	document.body.empty();
	mounted = undefined;
});

class FakeTools implements ToolsPort {
	reverts: string[] = [];
	forgotten: string[] = [];
	known = new Set<string>();
	outcome: RevertOutcome = { ok: true };
	revert(callId: string): Promise<RevertOutcome> {
		this.reverts.push(callId);
		if (this.outcome.ok) this.known.delete(callId);
		return Promise.resolve(this.outcome);
	}
	canRevert(callId: string): boolean {
		return this.known.has(callId);
	}
	forgetChat(chatId: string): void {
		this.forgotten.push(chatId);
	}
}

interface Setup {
	m: Mounted;
	emit: (e: ChatEvent) => void;
	panel: () => PanelHooks;
	tools: FakeTools;
}

/** The panel on the fake engine, with the engine's event stream, the panel's hooks and fake vault tools. */
async function setup(opts: { prompt?: ShowPermissionPrompt; before?: Parameters<typeof mountView>[0] extends infer O ? (O extends { before?: infer B } ? B : never) : never } = {}): Promise<Setup> {
	let emit: ((e: ChatEvent) => void) | undefined;
	let hooks: PanelHooks | undefined;
	const tools = new FakeTools();
	mounted = await mountView({
		viewOptions: opts.prompt ? { permissionPrompt: opts.prompt } : {},
		before: (w) => {
			opts.before?.(w);
			const factory = w.factory;
			w.factory = async (host, onEvent, panel) => {
				emit = onEvent;
				hooks = panel;
				const runtime = await factory(host, onEvent);
				runtime.tools = tools;
				return runtime;
			};
		},
	});
	return { m: mounted, emit: (e) => emit!(e), panel: () => hooks!, tools };
}

async function send(m: Mounted, text: string): Promise<void> {
	typeInto(m.input(), text);
	pressKey(m.input(), "Enter");
	await flush();
}

const call = (id: string, name: string, args: Record<string, unknown>): ToolCall => ({ id, name, arguments: args });
const card = (c: Partial<ToolCard> & Pick<ToolCard, "id" | "name" | "state">): ToolCard => ({ index: 0, round: 1, ...c });
const cards = (m: Mounted) => Array.from(m.root.querySelectorAll<HTMLElement>(".discover-tool-card"));
const titleOf = (el: HTMLElement) => el.querySelector(".discover-tool-card-title")?.textContent ?? "";

describe("live tool cards", () => {
	it("one card per call id, updated in place from streaming arguments to done, between the answer's text and the text after it", async () => {
		const { m, emit } = await setup();
		await send(m, "What does my plan say?");
		m.chat.token("Let me look.");
		m.frames.frame();
		const search = call("c1", "search_notes", { query: "plan" });
		emit({ type: "tool", card: card({ id: "c1", name: "search_notes", state: "input", argumentsText: '{"que', access: "read" }) });
		emit({ type: "tool", card: card({ id: "c1", name: "search_notes", state: "input", argumentsText: '{"query":"plan"}', access: "read" }) });
		expect(cards(m)).toHaveLength(1);
		const live = cards(m)[0]!;
		expect(live.hasClass("is-input")).toBe(true);
		// The arguments as they arrive, monospace.
		expect(live.querySelector("pre.discover-tool-card-args")?.textContent).toBe('{"query":"plan"}');

		// The engine saves the answer with its call: the streamed bubble becomes it, the card stays.
		const called = message("assistant", "Let me look.", { toolCalls: [search] });
		emit({ type: "message", message: called });
		emit({ type: "tool", card: card({ id: "c1", name: "search_notes", state: "waiting", waitingFor: "run", arguments: search.arguments, access: "read" }) });
		expect(live.hasClass("is-waiting")).toBe(true);
		expect(live.textContent).toContain(t("toolCard.waitingRun"));
		emit({ type: "tool", card: card({ id: "c1", name: "search_notes", state: "running", arguments: search.arguments, access: "read" }) });
		expect(live.textContent).toContain(t("toolCard.running"));
		emit({ type: "tool", card: card({ id: "c1", name: "search_notes", state: "done", arguments: search.arguments, access: "read", result: "Projects/Plan.md: ship in May" }) });
		emit({ type: "message", message: message("tool", "Projects/Plan.md: ship in May", { toolCallId: "c1", name: "search_notes" }) });

		expect(cards(m)).toEqual([live]);
		expect(live.hasClass("is-done")).toBe(true);
		expect(live.querySelector("pre.discover-tool-card-args")?.hasClass("discover-chat-hidden")).toBe(true);
		// The result is folded.
		const details = live.querySelector("details.discover-tool-card-result")!;
		expect(details.hasAttribute("open")).toBe(false);
		expect(details.textContent).toContain("ship in May");
		// The saved result is no bubble of its own.
		expect(m.root.querySelector(".discover-chat-message-tool")).toBeNull();
		expect(m.root.textContent).not.toContain(t("message.toolResult"));

		// More text after the call: a new bubble, after the card.
		m.chat.token("It says May.");
		m.frames.frame();
		await flush();
		const bubbles = m.messages();
		expect(bubbles).toHaveLength(3);
		expect(bubbles[1]!.contains(live)).toBe(true);
		expect(bubbles[1]!.querySelector(".discover-chat-message-body")?.textContent).toBe("Let me look.");
		expect(live.compareDocumentPosition(bubbles[2]!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
		expect(m.texts()[2]).toBe("It says May.");
	});

	it("the status line says a call waits for permission or runs; the answer going on after the calls is marked as the same answer", async () => {
		const { m, emit } = await setup();
		await send(m, "Fix my plan");
		const edit = call("e1", "edit_note", { path: "Projects/Plan.md" });
		emit({ type: "message", message: message("assistant", "Checking.", { toolCalls: [edit] }) });
		emit({ type: "tool", card: card({ id: "e1", name: "edit_note", state: "waiting", waitingFor: "permission", access: "write", arguments: edit.arguments }) });
		expect(m.q(".discover-chat-status").textContent).toBe(t("toolCard.waitingPermission"));
		emit({ type: "tool", card: card({ id: "e1", name: "edit_note", state: "running", access: "write", arguments: edit.arguments }) });
		expect(m.q(".discover-chat-status").textContent).toBe(t("toolCard.running"));
		m.chat.token("Done.");
		const [, first, next] = m.messages();
		expect(first!.hasClass("discover-chat-message-continued")).toBe(false);
		expect(next!.hasClass("discover-chat-message-continued")).toBe(true);
	});

	it("a call before any text gets its own answer bubble, without a waiting ellipsis", async () => {
		const { m, emit } = await setup();
		await send(m, "List my notes");
		emit({ type: "tool", card: card({ id: "c1", name: "list_notes", state: "input", argumentsText: "" }) });
		expect(m.messages()).toHaveLength(2);
		expect(m.messages()[1]!.contains(cards(m)[0]!)).toBe(true);
		await flush();
		expect(m.texts()[1]).toBe("");
	});

	it("long arguments show only their newest characters; a long result only its start", async () => {
		const { m, emit } = await setup();
		await send(m, "Write it");
		const content = "x".repeat(5000) + "THE END";
		emit({ type: "tool", card: card({ id: "c1", name: "create_note", state: "input", argumentsText: `{"path":"A.md","content":"${content}` }) });
		const args = cards(m)[0]!.querySelector("pre.discover-tool-card-args")!.textContent;
		expect(args.length).toBeLessThanOrEqual(ARGS_SHOWN_CHARS + 1);
		expect(args.endsWith("THE END")).toBe(true);
		emit({ type: "tool", card: card({ id: "c1", name: "create_note", state: "done", arguments: { path: "A.md" }, result: "r".repeat(100_000) }) });
		expect(cards(m)[0]!.querySelector(".discover-tool-card-result-text")!.textContent.length).toBeLessThanOrEqual(RESULT_SHOWN_CHARS + 1);
	});

	it("names the call in the person's words, with the raw tool name at hand; a failed call shows its error", async () => {
		const { m, emit } = await setup();
		await send(m, "Go");
		emit({ type: "tool", card: card({ id: "a", name: "search_notes", state: "done", arguments: { query: "plan" }, result: "…" }) });
		emit({ type: "tool", card: card({ id: "b", name: "read_note", state: "waiting", waitingFor: "permission", arguments: { path: "Projects/Plan.md" }, access: "read" }) });
		emit({ type: "tool", card: card({ id: "c", name: "edit_note", state: "failed", arguments: { path: "Projects/Plan.md" }, access: "write", error: "The person declined: not now" }) });
		const [a, b, c] = cards(m);
		expect(titleOf(a!)).toBe(t("toolCard.doneSearch", { query: "plan" }));
		expect(a!.querySelector(".discover-tool-card-title")?.getAttribute("title")).toBe(t("toolCard.toolName", { name: "search_notes" }));
		expect(titleOf(b!)).toBe(t("permission.titleRead", { path: "Projects/Plan.md" }));
		expect(b!.textContent).toContain(t("toolCard.waitingPermission"));
		expect(c!.hasClass("is-failed")).toBe(true);
		// What the model was told ("The person declined: not now"), in the person's words.
		expect(c!.querySelector(".discover-tool-card-error")?.textContent).toBe("You declined: not now");
	});

	it("the engine's 'no tools' warning shows once, in the person's language", async () => {
		expect(engineText(TOOLS_UNSUPPORTED_WARNING)).toBe(t("note.toolsUnsupported"));
		const { m, emit } = await setup();
		await send(m, "Hi");
		emit({ type: "warning", message: TOOLS_UNSUPPORTED_WARNING });
		const notes = Array.from(m.root.querySelectorAll(".discover-chat-note")).map((n) => n.textContent);
		expect(notes).toEqual([t("note.toolsUnsupported")]);
	});
});

describe("saved tool calls after a reload", () => {
	function toolChat(m: Mounted): string {
		const read = call("r1", "read_note", { path: "Projects/Plan.md" });
		const edit = call("e1", "edit_note", { path: "Projects/Plan.md" });
		const session = m.sessions.add("Plan", [
			message("user", "Fix my plan"),
			message("assistant", "Reading it.", { toolCalls: [read, edit] }),
			message("tool", "# Plan\nShip in May", { toolCallId: "r1", name: "read_note" }),
			message("tool", "The person declined: not today", { toolCallId: "e1", name: "edit_note", isError: true }),
			message("assistant", "I left it as it is."),
		]);
		return session.id;
	}

	it("render as done and failed cards inside their answer, not as 'Tool result' bubbles", async () => {
		const { m } = await setup();
		await m.view.openSession(toolChat(m));
		await flush();
		expect(m.messages()).toHaveLength(3);
		expect(m.root.querySelector(".discover-chat-message-tool")).toBeNull();
		const [read, edit] = cards(m);
		expect(m.messages()[1]!.contains(read!)).toBe(true);
		expect(read!.hasClass("is-done")).toBe(true);
		expect(titleOf(read!)).toBe(t("toolCard.doneRead", { path: "Projects/Plan.md" }));
		expect(read!.querySelector("details")?.textContent).toContain("Ship in May");
		expect(edit!.hasClass("is-failed")).toBe(true);
		expect(edit!.textContent).toContain("You declined: not today");
	});

	it("two answers whose calls share an id (made up by the server) each keep their own card and result", async () => {
		const { m, emit } = await setup();
		const first = call("call_0", "read_note", { path: "A.md" });
		const second = call("call_0", "read_note", { path: "B.md" });
		const session = m.sessions.add("Repeats", [
			message("user", "Read A"),
			message("assistant", "", { toolCalls: [first] }),
			message("tool", "alpha text", { toolCallId: "call_0", name: "read_note" }),
			message("assistant", "A says alpha."),
			message("user", "Read B"),
			message("assistant", "", { toolCalls: [second] }),
			message("tool", "The note B.md was not found", { toolCallId: "call_0", name: "read_note", isError: true }),
			message("assistant", "B is not there."),
		]);
		await m.view.openSession(session.id);
		await flush();
		const [a, b] = cards(m);
		expect(cards(m)).toHaveLength(2);
		expect(titleOf(a!)).toBe(t("toolCard.doneRead", { path: "A.md" }));
		expect(a!.hasClass("is-done")).toBe(true);
		expect(a!.querySelector("details")?.textContent).toContain("alpha text");
		expect(b!.hasClass("is-failed")).toBe(true);
		expect(b!.textContent).toContain("B.md was not found");
		const bubbles = m.messages();
		const answerOf = (card: HTMLElement): number => bubbles.findIndex((el) => el.contains(card));
		expect(answerOf(a!)).toBeLessThan(answerOf(b!));
		// A new turn's call under the same id gets a card of its own; the saved ones keep theirs.
		emit({ type: "tool", card: card({ id: "call_0", name: "search_notes", state: "input", argumentsText: '{"query":"tide"}', access: "read" }) });
		await flush();
		expect(cards(m)).toHaveLength(3);
		expect(b!.hasClass("is-failed")).toBe(true);
		expect(b!.textContent).toContain("B.md was not found");
	});

	it("a long chat of tool rounds still renders one page of answers, with only their cards", async () => {
		const { m } = await setup();
		const all: ChatMessage[] = [];
		for (let i = 0; i < 200; i++) {
			const c = call(`c${i}`, "search_notes", { query: `q${i}` });
			all.push(message("user", `Q${i}`), message("assistant", "", { toolCalls: [c] }), message("tool", `hit ${i}`, { toolCallId: c.id, name: "search_notes" }), message("assistant", `A${i}`));
		}
		const session = m.sessions.add("Long", all);
		await m.view.openSession(session.id);
		await flush();
		expect(m.messages()).toHaveLength(PAGE_SIZE);
		expect(m.root.querySelector(".discover-chat-message-tool")).toBeNull();
		expect(cards(m).length).toBeGreaterThan(0);
		expect(cards(m).length).toBeLessThanOrEqual(PAGE_SIZE);
		expect(cards(m).every((c) => c.hasClass("is-done"))).toBe(true);
	});
});

describe("Revert on a done write", () => {
	async function doneEdit(s: Setup): Promise<HTMLElement> {
		await send(s.m, "Edit it");
		s.tools.known.add("w1");
		s.emit({ type: "tool", card: card({ id: "w1", name: "edit_note", state: "done", access: "write", arguments: { path: "Notes/Alpha.md" }, result: "Edited Notes/Alpha.md." }) });
		return cards(s.m)[0]!;
	}

	it("reverts through the runtime and says so; the button goes", async () => {
		const s = await setup();
		const el = await doneEdit(s);
		const button = el.querySelector<HTMLButtonElement>(".discover-tool-card-revert")!;
		expect(button.textContent).toBe(t("toolCard.revert"));
		button.click();
		await flush();
		expect(s.tools.reverts).toEqual(["w1"]);
		expect(el.querySelector(".discover-tool-card-revert-note")?.textContent).toBe(t("toolCard.reverted"));
		expect(el.querySelector(".discover-tool-card-revert")).toBeNull();
		expect(el.hasClass("is-reverted")).toBe(true);
	});

	it("a note changed since: the card says why it cannot revert, and nothing else changes", async () => {
		const s = await setup();
		s.tools.outcome = { ok: false, reason: "changed" };
		const el = await doneEdit(s);
		el.querySelector<HTMLButtonElement>(".discover-tool-card-revert")!.click();
		await flush();
		expect(el.querySelector(".discover-tool-card-revert-note")?.textContent).toBe(t("toolCard.revertChanged"));
		expect(el.hasClass("is-reverted")).toBe(false);
	});

	it("no Revert for a read, or for a write the engine no longer knows (after a reload)", async () => {
		const s = await setup();
		await send(s.m, "Go");
		s.emit({ type: "tool", card: card({ id: "r", name: "read_note", state: "done", access: "read", arguments: { path: "A.md" }, result: "text" }) });
		s.emit({ type: "tool", card: card({ id: "w", name: "edit_note", state: "done", access: "write", arguments: { path: "A.md" }, result: "Edited" }) });
		expect(s.m.root.querySelector(".discover-tool-card-revert")).toBeNull();
	});
});

describe("the permission prompt in the call's card", () => {
	it("mounts inside the waiting card and resolves with the person's decision", async () => {
		const shown: { parent: HTMLElement; name: string; signal?: AbortSignal; decide: (d: AccessDecision) => void }[] = [];
		const prompt: ShowPermissionPrompt = (parent, req, signal) => new Promise((resolve) => shown.push({ parent, name: req.tool.name, signal, decide: resolve }));
		const s = await setup({ prompt });
		await send(s.m, "Edit it");
		const c = call("w1", "edit_note", { path: "Notes/Alpha.md" });
		s.emit({ type: "message", message: message("assistant", "", { toolCalls: [c] }) });
		s.emit({ type: "tool", card: card({ id: "w1", name: "edit_note", state: "waiting", waitingFor: "permission", access: "write", arguments: c.arguments }) });
		const answer = s.panel().ask(c, { name: "edit_note", access: "write" } as never, { path: "Notes/Alpha.md", before: "a", after: "b", diff: "-a\n+b" });
		expect(shown).toHaveLength(1);
		expect(shown[0]!.name).toBe("edit_note");
		expect(cards(s.m)[0]!.querySelector(".discover-tool-card-permission")).toBe(shown[0]!.parent);
		shown[0]!.decide({ kind: "once" });
		await expect(answer).resolves.toEqual({ kind: "once" });
	});

	it("Stop denies a pending prompt", async () => {
		const s = await setup({
			prompt: (_parent, _req, signal) =>
				new Promise((resolve) => {
					signal?.addEventListener("abort", () => resolve({ kind: "deny" }));
				}),
		});
		await send(s.m, "Edit it");
		const c = call("w1", "edit_note", { path: "Notes/Alpha.md" });
		s.emit({ type: "tool", card: card({ id: "w1", name: "edit_note", state: "waiting", waitingFor: "permission", access: "write", arguments: c.arguments }) });
		const answer = s.panel().ask(c, { name: "edit_note", access: "write" } as never, undefined);
		s.m.button().click();
		await expect(answer).resolves.toEqual({ kind: "deny" });
	});

	it("the card moving on (the engine's expiry) takes the prompt down", async () => {
		let aborted = false;
		const s = await setup({ prompt: (_p, _r, signal) => new Promise((resolve) => signal?.addEventListener("abort", () => ((aborted = true), resolve({ kind: "deny" })))) });
		await send(s.m, "Edit it");
		const c = call("w1", "edit_note", {});
		s.emit({ type: "tool", card: card({ id: "w1", name: "edit_note", state: "waiting", waitingFor: "permission", access: "write", arguments: {} }) });
		void s.panel().ask(c, { name: "edit_note", access: "write" } as never, undefined);
		s.emit({ type: "tool", card: card({ id: "w1", name: "edit_note", state: "failed", access: "write", arguments: {}, error: "The person declined: no answer" }) });
		expect(aborted).toBe(true);
	});
});

describe("the per-chat tools switch", () => {
	const switchEl = (m: Mounted) => m.q<HTMLButtonElement>(".discover-tools-switch");

	it("is on by default; off sends tools: false for this chat only, remembered when the chat comes back", async () => {
		const { m } = await setup();
		expect(switchEl(m).getAttribute("aria-pressed")).toBe("true");
		await send(m, "First");
		m.chat.finish();
		await flush();
		expect(m.chat.sent[0]!.opts.tools).toBeUndefined();
		const first = m.chat.sessionId!;

		switchEl(m).click();
		expect(switchEl(m).getAttribute("aria-pressed")).toBe("false");
		expect(switchEl(m).getAttribute("aria-label")).toBe(t("tools.switchOff"));
		await send(m, "Second");
		m.chat.finish();
		await flush();
		expect(m.chat.sent[1]!.opts.tools).toBe(false);

		const other = m.sessions.add("Other", [message("user", "x"), message("assistant", "y")]);
		await m.view.openSession(other.id);
		expect(switchEl(m).getAttribute("aria-pressed")).toBe("true");
		await m.view.openSession(first);
		expect(switchEl(m).getAttribute("aria-pressed")).toBe("false");
	});

	it("slash commands always send without tools", async () => {
		const { m } = await setup();
		const ran = m.view.runSlashCommand(SLASH_COMMANDS[0]!);
		await flush();
		expect(m.chat.sent[0]!.opts.tools).toBe(false);
		m.chat.finish();
		await ran;
	});

	it("leaving a chat forgets its 'allow for this chat' grants", async () => {
		const { m, tools } = await setup();
		await send(m, "First");
		m.chat.finish();
		await flush();
		const first = m.chat.sessionId!;
		const other = m.sessions.add("Other", [message("user", "x"), message("assistant", "y")]);
		await m.view.openSession(other.id);
		expect(tools.forgotten).toEqual([first]);
	});
});
