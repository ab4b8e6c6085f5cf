// @vitest-environment happy-dom
// The branch panel on the real engine: the arrows between alternatives, Regenerate, Edit, Continue,
// Delete turn with Undo, and the history browser's deleted turns and hits on other branches.
import { afterEach, describe, expect, it } from "vitest";
import { clearNotices, flush, notices, pressKey, typeInto } from "../obsidian/harness";
import { StubAdapter } from "../support/stubAdapter";
import { ChatService } from "../../src/chat/ChatService";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { mountBranchPanel as mount, unmountBranchPanels } from "./branchPanel";
import { testSettings } from "./fakes";
import { until } from "../support/chatHarness";
import { PAGE_SIZE } from "../../src/ui/panel/MessageList";

afterEach(async () => {
	unmountBranchPanels();
	await flush();
	document.body.empty();
	clearNotices();
});

describe("branches in the panel", () => {
	it("Regenerate streams a new answer, and the arrows switch between the two", async () => {
		const m = await mount({ chunkSize: 3 });
		await m.send("What is Alpha?");
		await m.idle();
		await until(() => m.bodies().join("|") === "What is Alpha?|Answer 1.", "the first answer");

		m.button(m.last(), "discover-chat-regenerate").click();
		await m.idle();
		await until(() => m.bodies().join("|") === "What is Alpha?|Answer 2.", "the regenerated answer in place of the first");
		await until(() => m.position(m.last()) === "2 / 2", "the arrows on the new answer");
		// The regenerated request asked the same question once, without the old answer.
		const request = m.stub().chatRequests[1]!;
		expect(request.messages.filter((x) => x.role === "user").map((x) => x.content)).toEqual(["What is Alpha?"]);
		expect(request.messages.some((x) => x.content.includes("Answer 1."))).toBe(false);

		const prev = m.button(m.last(), "discover-chat-branch-prev");
		expect(prev.getAttribute("aria-label")).toBe("Previous version");
		expect(m.button(m.last(), "discover-chat-branch-next").disabled).toBe(true);
		prev.click();
		await until(() => m.bodies().join("|") === "What is Alpha?|Answer 1.", "the first answer again");
		await until(() => m.position(m.last()) === "1 / 2", "the arrows at the first answer");
		expect(m.button(m.last(), "discover-chat-branch-prev").disabled).toBe(true);
		// The next prompt holds the answer now shown.
		await m.send("And then?");
		await m.idle();
		const next = m.stub().chatRequests[2]!;
		expect(next.messages.map((x) => x.content)).toContain("Answer 1.");
		expect(next.messages.map((x) => x.content)).not.toContain("Answer 2.");
	});

	it("Stop works on a regenerated answer, which is kept, marked stopped", async () => {
		const m = await mount({ chunkSize: 3 });
		await m.send("Tell me a story");
		await m.idle();
		m.adapter.current = new StubAdapter({ hangAfter: "Once upon", chunkSize: 3 });
		m.button(m.last(), "discover-chat-regenerate").click();
		await until(() => m.root.querySelector(".discover-chat-message-streaming")?.textContent?.includes("Once upon") === true, "the streaming answer");
		m.root.querySelector<HTMLButtonElement>(".discover-chat-send")!.click();
		await m.idle();
		await until(() => m.last().querySelector(".discover-chat-message-stopped") !== null, "the stopped mark");
		expect(m.bodies()).toEqual(["Tell me a story", "Once upon"]);
	});

	it("Edit replaces the bubble with a box; Escape cancels, Ctrl+Enter sends, and the old message stays an alternative", async () => {
		const m = await mount();
		await m.send("First question");
		await m.idle();
		await m.send("Second question");
		await m.idle();
		await until(() => m.bodies().length === 4, "two turns");
		const second = () => m.messageEls()[2]!;

		m.button(second(), "discover-chat-edit-message").click();
		const box = () => second().querySelector<HTMLTextAreaElement>(".discover-chat-edit-input");
		expect(box()?.value).toBe("Second question");
		expect(second().querySelector(".discover-chat-message-body")!.hasClass("discover-chat-hidden")).toBe(true);
		pressKey(box()!, "Escape");
		expect(box()).toBeNull();
		expect(second().querySelector(".discover-chat-message-body")!.hasClass("discover-chat-hidden")).toBe(false);
		expect(m.stub().chatRequests).toHaveLength(2);

		m.button(second(), "discover-chat-edit-message").click();
		typeInto(box()!, "Second question, edited");
		pressKey(box()!, "Enter", { ctrl: true });
		await m.idle();
		await until(() => m.bodies().join("|") === "First question|Answer 1.|Second question, edited|Answer 3.", "the edited branch");
		const request = m.stub().chatRequests[2]!;
		expect(request.messages.filter((x) => x.role === "user").map((x) => x.content)).toEqual(["First question", "Second question, edited"]);
		// The earlier version is reachable from the person's message.
		await until(() => m.position(second()) === "2 / 2", "the arrows on the edited message");
		m.button(second(), "discover-chat-branch-prev").click();
		await until(() => m.bodies().join("|") === "First question|Answer 1.|Second question|Answer 2.", "the earlier branch");
	});

	it("Continue goes on with a stopped answer in the same bubble", async () => {
		const m = await mount({ hangAfter: "The story begins", chunkSize: 4 });
		await m.send("Tell me a story");
		await until(() => m.root.querySelector(".discover-chat-message-streaming")?.textContent?.includes("The story begins") === true, "the partial answer");
		m.root.querySelector<HTMLButtonElement>(".discover-chat-send")!.click();
		await m.idle();
		await until(() => m.last().querySelector(".discover-chat-continue") !== null, "Continue on the stopped answer");
		m.adapter.current = new StubAdapter({ reply: " and ends.", chunkSize: 4 });

		m.button(m.last(), "discover-chat-continue").click();
		await m.idle();
		await until(() => m.bodies().join("|") === "Tell me a story|The story begins and ends.", "the continued answer");
		expect(m.messageEls()).toHaveLength(2);
		expect(m.last().querySelector(".discover-chat-continue")).toBeNull();
		expect(m.stub().chatRequests[0]!.messages.at(-2)).toEqual({ role: "assistant", content: "The story begins" });
	});

	it("Delete turn hides the turn, with Undo in a notice", async () => {
		const m = await mount();
		await m.send("Keep this");
		await m.idle();
		await m.send("Drop this");
		await m.idle();
		await until(() => m.bodies().length === 4, "two turns");
		m.button(m.messageEls()[3]!, "discover-chat-delete-turn").click();
		await until(() => m.bodies().join("|") === "Keep this|Answer 1.", "the turn gone");
		expect(notices()).toContain("Turn deleted. Restore it here or from the chat history.");
		const undo = document.body.querySelector<HTMLButtonElement>(".notice .discover-chat-undo")!;
		expect(undo.textContent).toBe("Undo");
		undo.click();
		await until(() => m.bodies().join("|") === "Keep this|Answer 1.|Drop this|Answer 2.", "the turn back");
	});

	it("the history browser lists deleted turns and restores them", async () => {
		const m = await mount();
		await m.send("Keep this");
		await m.idle();
		await m.send("Drop this");
		await m.idle();
		m.button(m.messageEls()[3]!, "discover-chat-delete-turn").click();
		await until(() => m.bodies().length === 2, "the turn gone");
		m.root.querySelector<HTMLButtonElement>('[aria-label="Open history"]')!.click();
		await until(() => document.body.querySelector(".discover-chat-history-hidden-turn") !== null, "the deleted turn in the history");
		expect(document.body.querySelector(".discover-chat-history-hidden summary")?.textContent).toBe("1 deleted turn");
		expect(document.body.querySelector(".discover-chat-history-hidden-text")?.textContent).toBe("Drop this");
		document.body.querySelector<HTMLButtonElement>(".discover-chat-history-restore")!.click();
		await until(() => m.bodies().join("|") === "Keep this|Answer 1.|Drop this|Answer 2.", "the turn back in the panel");
		await until(() => document.body.querySelector(".discover-chat-history-hidden-turn") === null, "the history's list emptied");
		pressKey(window, "Escape");
	});

	it("a search hit on another branch says so, and Load opens that branch", async () => {
		const m = await mount({ reply: (_req, i) => (i === 0 ? "Zebras are striped." : "Lions roar.") });
		await m.send("Tell me about animals");
		await m.idle();
		m.button(m.last(), "discover-chat-regenerate").click();
		await m.idle();
		await until(() => m.bodies().join("|") === "Tell me about animals|Lions roar.", "the regenerated answer");

		m.root.querySelector<HTMLButtonElement>('[aria-label="Open history"]')!.click();
		await until(() => document.body.querySelector(".discover-chat-history-search") !== null, "the history");
		typeInto(document.body.querySelector<HTMLInputElement>(".discover-chat-history-search")!, "zebras");
		await until(() => document.body.querySelector(".discover-chat-history-hit") !== null, "the hit");
		expect(document.body.querySelector(".discover-chat-history-hit .discover-chat-history-other-branch")?.textContent).toBe("On another branch");
		document.body.querySelector<HTMLElement>(".discover-chat-history-hit")!.click();
		await until(() => document.body.querySelector(".discover-chat-history-branch-note") !== null, "the note about the branch");
		Array.from(document.body.querySelectorAll<HTMLButtonElement>(".discover-chat-history-actions button")).find((b) => b.textContent === "Load")!.click();
		await until(() => m.bodies().join("|") === "Tell me about animals|Zebras are striped.", "the hit's branch in the panel");
	});

	it("a switch in a long chat renders one page, and only rendered messages are asked for their versions", async () => {
		const store = new MemoryFileStore();
		const sessions = new SessionManager(store);
		const chat = new ChatService({ adapter: new StubAdapter({ noDelay: true }), sessions, settings: testSettings({ includeActiveNote: false }), model: "stub" });
		for (let i = 0; i < 200; i++) await chat.sendMessage(`Question ${i}`);
		await chat.regenerate();
		const m = await mount({}, { saved: { store, activeSessionId: chat.sessionId! } });
		await until(() => m.position(m.last()) === "2 / 2", "the arrows on the last answer");
		expect(m.renderedCount()).toBeLessThanOrEqual(PAGE_SIZE);
		expect(m.asked.alternatives).toBeLessThanOrEqual(PAGE_SIZE);
		const before = m.asked.alternatives;
		m.button(m.last(), "discover-chat-branch-prev").click();
		await until(() => m.position(m.last()) === "1 / 2", "the first answer");
		expect(m.bodies().at(-1)).toBe("Answer 200.");
		expect(m.renderedCount()).toBeLessThanOrEqual(PAGE_SIZE);
		expect(m.asked.alternatives - before).toBeLessThanOrEqual(PAGE_SIZE);
		// The arrow keeps the focus, on the message now shown.
		expect(document.activeElement?.closest(".discover-chat-branch-nav")).not.toBeNull();
	});

	it("an edit sent while an answer runs stays in its box, with a notice", async () => {
		const m = await mount();
		await m.send("First question");
		await m.idle();
		const first = m.messageEls()[0]!;
		m.button(first, "discover-chat-edit-message").click();
		const box = first.querySelector<HTMLTextAreaElement>(".discover-chat-edit-input")!;
		typeInto(box, "First question, sharper");
		m.adapter.current = new StubAdapter({ hangAfter: "Thinking it over", chunkSize: 4 });
		await m.send("Another question");
		await until(() => m.root.querySelector(".discover-chat-message-streaming")?.textContent?.includes("Thinking it over") === true, "the running answer");
		pressKey(box, "Enter", { ctrl: true });
		expect(notices()).toContain("Wait for the answer to finish, or stop it first.");
		expect(box.isConnected && box.value === "First question, sharper").toBe(true);
		m.root.querySelector<HTMLButtonElement>(".discover-chat-send")!.click();
		await m.idle();
	});

	it("the history restores a deleted turn of a chat that is not on screen", async () => {
		const m = await mount();
		await m.send("Keep this");
		await m.idle();
		await m.send("Drop this");
		await m.idle();
		const first = m.view.chatRuntime!.chat.sessionId!;
		m.button(m.messageEls()[3]!, "discover-chat-delete-turn").click();
		await until(() => m.bodies().length === 2, "the turn gone");
		m.root.querySelector<HTMLButtonElement>('[aria-label="New chat"]')!.click();
		await until(() => m.bodies().length === 0, "a new chat");
		await m.send("Another chat");
		await m.idle();
		m.root.querySelector<HTMLButtonElement>('[aria-label="Open history"]')!.click();
		await until(() => document.body.querySelectorAll(".discover-chat-history-item").length === 2, "both chats in the history");
		Array.from(document.body.querySelectorAll<HTMLElement>(".discover-chat-history-item")).find((el) => el.dataset.sessionId === first)!.click();
		await until(() => document.body.querySelector(".discover-chat-history-restore") !== null, "the deleted turn of the first chat");
		document.body.querySelector<HTMLButtonElement>(".discover-chat-history-restore")!.click();
		await until(() => document.body.querySelector(".discover-chat-history-hidden-turn") === null, "the turn restored");
		const saved = await m.sessions().load(first);
		expect(saved.messages.map((x) => x.content)).toEqual(["Keep this", "Answer 1.", "Drop this", "Answer 2."]);
		// The chat on screen is untouched.
		expect(m.bodies()).toEqual(["Another chat", "Answer 3."]);
		pressKey(window, "Escape");
	});
});
