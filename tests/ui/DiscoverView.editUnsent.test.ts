// @vitest-environment happy-dom
// An edit (the inline box on a message of the person's) loses nothing, however it ends: no model,
// Stop before or while its message is saved, a store that refuses it, the panel closing. Text never
// saved comes back in its box on the message (or, with the panel gone, in the input's draft); once
// saved, a Stop keeps the edited message and the partial answer like any stopped answer.
import { afterEach, describe, expect, it } from "vitest";
import { clearNotices, flush, pressKey, typeInto } from "../obsidian/harness";
import { StubAdapter } from "../support/stubAdapter";
import { until } from "../support/chatHarness";
import { ChatService } from "../../src/chat/ChatService";
import { SessionManager } from "../../src/sessions/SessionManager";
import { savedDraft } from "../../src/ui/panel/draftState";
import { mountBranchPanel, unmountBranchPanels, type BranchPanel, type BranchPanelOptions } from "./branchPanel";
import { testSettings } from "./fakes";
import { PickyStore } from "../support/pickyStore";

afterEach(async () => {
	unmountBranchPanels();
	await flush();
	document.body.empty();
	clearNotices();
});

const EDITED = "Second question, edited";
const BEFORE = "First question|Answer 1.|Second question|Answer 2.";

/** A chat of two turns, saved before the panel opens, shown in it. */
async function twoTurns(settings: BranchPanelOptions["settings"] = {}, sync?: BranchPanelOptions["sync"]): Promise<BranchPanel & { picky: PickyStore }> {
	const picky = new PickyStore();
	const chat = new ChatService({ adapter: new StubAdapter(), sessions: new SessionManager(picky), settings: testSettings({ includeActiveNote: false }), model: "stub" });
	await chat.sendMessage("First question");
	await chat.sendMessage("Second question");
	const m = await mountBranchPanel({ reply: (_req, i) => `Answer ${i + 3}.` }, { saved: { store: picky, activeSessionId: chat.sessionId! }, settings, sync });
	await until(() => m.bodies().join("|") === BEFORE, "the saved chat");
	return Object.assign(m, { picky });
}

const second = (m: BranchPanel): HTMLElement => m.root.querySelector<HTMLElement>(`.discover-chat-message[data-message-id="${m.view.chatRuntime!.chat.messages[2]!.id}"]`)!;
const box = (m: BranchPanel): HTMLTextAreaElement | null => m.root.querySelector<HTMLTextAreaElement>(".discover-chat-edit-input");
const stopButton = (m: BranchPanel): HTMLButtonElement => m.root.querySelector<HTMLButtonElement>(".discover-chat-send")!;

/** Opens the second message's box, types the edit and sends it with Ctrl+Enter. */
function sendEdit(m: BranchPanel): void {
	m.button(second(m), "discover-chat-edit-message").click();
	typeInto(box(m)!, EDITED);
	pressKey(box(m)!, "Enter", { ctrl: true });
}

/** The box is open again on the second message, holding the edited text. */
function expectBoxBack(m: BranchPanel): void {
	expect(box(m)?.value).toBe(EDITED);
	expect(box(m)!.closest(".discover-chat-message")).toBe(second(m));
	expect(m.bodies().join("|")).toBe(BEFORE);
}

describe("an edit that is never saved comes back in its box", () => {
	it("sent with no model chosen: the box comes back with the edited text, beside the prompt to pick a model", async () => {
		const m = await twoTurns({ model: "" });
		sendEdit(m);
		await flush();
		expectBoxBack(m);
		expect(m.root.querySelector(".discover-chat-offer")?.textContent).toContain("Open settings");
		expect(m.stub().chatRequests).toHaveLength(0);
	});

	it("stopped before it went out: the box comes back and nothing was asked", async () => {
		const m = await twoTurns();
		sendEdit(m);
		stopButton(m).click();
		await m.idle();
		await flush();
		expectBoxBack(m);
		expect(m.stub().chatRequests).toHaveLength(0);
	});

	it("stopped while its message was being saved: the box comes back on the chat as it was", async () => {
		const m = await twoTurns();
		m.picky.text = EDITED;
		sendEdit(m);
		await until(() => m.picky.waiting > 0, "the edited message being saved");
		stopButton(m).click();
		await m.idle();
		await flush();
		expectBoxBack(m);
		expect(m.stub().chatRequests).toHaveLength(0);
		// Sent again once the store answers, it goes through.
		m.picky.text = undefined;
		m.picky.releaseAll();
		pressKey(box(m)!, "Enter", { ctrl: true });
		await m.idle();
		await until(() => m.bodies().join("|") === `First question|Answer 1.|${EDITED}|Answer 3.`, "the edited branch");
	});

	it("refused by the store: the box comes back with the error under the chat", async () => {
		const m = await twoTurns();
		m.picky.text = EDITED;
		m.picky.mode = "refuse";
		sendEdit(m);
		await m.idle();
		await flush();
		expectBoxBack(m);
		expect(m.root.querySelector(".discover-chat-error")?.textContent).toContain("disk full");
		// The text is in its box, not also in the input.
		expect(m.input.value).toBe("");
	});

	it("refused as too long before anything was saved: the box comes back on the chat as it was, with the error", async () => {
		const m = await twoTurns();
		// Instructions that outgrew the model's window: no message can be sent.
		m.view.chatRuntime!.chat.updateSettings({ maxPromptTokens: 256, reservedResponseTokens: 128, systemPrompt: "Answer with care. ".repeat(100) });
		sendEdit(m);
		await m.idle();
		await flush();
		expectBoxBack(m);
		expect(m.root.querySelector(".discover-chat-error")).not.toBeNull();
		expect(m.input.value).toBe("");
		expect(m.stub().chatRequests).toHaveLength(0);
	});

	it("sent as the chats folder moved away from the chat: a new chat starts, and the edited text waits in the input", async () => {
		let moved = false;
		const m = await twoTurns({}, () => (moved ? { chatLeftBehind: { from: "Old chats", to: "New chats" } } : undefined));
		moved = true;
		sendEdit(m);
		await m.idle();
		await until(() => m.input.value === EDITED, "the edited text in the input");
		expect(m.bodies()).toEqual([]);
		expect(box(m)).toBeNull();
		expect(m.stub().chatRequests).toHaveLength(0);
	});

	it("the panel closed while its message was being saved: the edited text waits in the input's draft", async () => {
		const m = await twoTurns();
		m.picky.text = EDITED;
		sendEdit(m);
		await until(() => m.picky.waiting > 0, "the edited message being saved");
		m.leaf.detach();
		await until(() => savedDraft(m.host) === EDITED, "the edited text in the draft");
	});
});

describe("an edit whose message was saved", () => {
	it("stopped mid-answer keeps the edited message and the partial answer, marked stopped", async () => {
		const m = await twoTurns();
		m.adapter.current = new StubAdapter({ hangAfter: "Half an", chunkSize: 4 });
		sendEdit(m);
		await until(() => m.root.querySelector(".discover-chat-message-streaming")?.textContent?.includes("Half an") === true, "the partial answer");
		stopButton(m).click();
		await m.idle();
		await until(() => m.last().querySelector(".discover-chat-message-stopped") !== null, "the stopped mark");
		expect(m.bodies()).toEqual(["First question", "Answer 1.", EDITED, "Half an"]);
		expect(box(m)).toBeNull();
		const saved = await m.sessions().load(m.view.chatRuntime!.chat.sessionId!);
		expect(saved.messages.map((x) => x.content)).toEqual(["First question", "Answer 1.", EDITED, "Half an"]);
	});
});
