// @vitest-environment happy-dom
// However a Continue ends (done, stopped, failed, refused before it began), the answer is shown as
// a reload would show it: its text as saved, with its actions (copy, regenerate, continue, info,
// the arrows), and a failure shown like any send's.
import { afterEach, describe, expect, it } from "vitest";
import { clearNotices, flush } from "../obsidian/harness";
import { StubAdapter, type StubAdapterOptions } from "../support/stubAdapter";
import { until } from "../support/chatHarness";
import { mountBranchPanel, unmountBranchPanels, type BranchPanel } from "./branchPanel";

afterEach(async () => {
	unmountBranchPanels();
	await flush();
	document.body.empty();
	clearNotices();
});

/** A chat whose answer was stopped after "The story begins", with Continue on it. */
async function stoppedAnswer(): Promise<BranchPanel> {
	const m = await mountBranchPanel({ hangAfter: "The story begins", chunkSize: 4 });
	await m.send("Tell me a story");
	await until(() => m.root.querySelector(".discover-chat-message-streaming")?.textContent?.includes("The story begins") === true, "the partial answer");
	m.root.querySelector<HTMLButtonElement>(".discover-chat-send")!.click();
	await m.idle();
	await until(() => m.last().querySelector(".discover-chat-continue") !== null, "Continue on the stopped answer");
	return m;
}

/** The answer as a reload shows it: one bubble per message, the saved text, its actions. */
function expectAnswerAsSaved(m: BranchPanel, text: string): void {
	const saved = m.view.chatRuntime!.chat.messages.at(-1)!;
	expect(saved.content).toBe(text);
	expect(m.messageEls()).toHaveLength(2);
	const answer = m.last();
	expect(answer.dataset.messageId).toBe(saved.id);
	expect(answer.hasClass("discover-chat-message-streaming")).toBe(false);
	expect(answer.querySelector(".discover-chat-message-body")?.textContent).toBe(text);
	for (const cls of ["discover-chat-copy", "discover-chat-regenerate", "discover-chat-continue", "discover-chat-answer-info", "discover-chat-delete-turn"]) {
		expect(answer.querySelector(`.${cls}`), cls).not.toBeNull();
	}
}

async function continueWith(m: BranchPanel, opts: StubAdapterOptions): Promise<void> {
	m.adapter.current = new StubAdapter(opts);
	m.button(m.last(), "discover-chat-continue").click();
}

describe("after a Continue", () => {
	it("refused before it began (the instructions outgrew the window): the answer keeps its actions, and the error shows", async () => {
		const m = await stoppedAnswer();
		// A smaller model's window, and longer instructions: the turn no longer fits at all.
		m.view.chatRuntime!.chat.updateSettings({ maxPromptTokens: 256, reservedResponseTokens: 128, systemPrompt: "Answer with care. ".repeat(100) });
		await continueWith(m, { reply: " and ends." });
		await m.idle();
		await flush();
		expectAnswerAsSaved(m, "The story begins");
		expect(m.root.querySelector(".discover-chat-error")).not.toBeNull();
		expect(m.stub().chatRequests).toHaveLength(0);
	});

	it("failed by the server after streaming: the answer is back as it was, with its actions, and the error shows", async () => {
		const m = await stoppedAnswer();
		await continueWith(m, { failAfter: " and then", chunkSize: 4 });
		await m.idle();
		await flush();
		expectAnswerAsSaved(m, "The story begins");
		expect(m.root.querySelector(".discover-chat-error")?.textContent).toContain("The server had a problem");
	});

	it("stopped mid-way: the answer keeps what came, marked stopped, with its actions", async () => {
		const m = await stoppedAnswer();
		await continueWith(m, { hangAfter: " and then", chunkSize: 4 });
		await until(() => m.root.querySelector(".discover-chat-message-streaming")?.textContent?.includes("and then") === true, "the continuation");
		m.root.querySelector<HTMLButtonElement>(".discover-chat-send")!.click();
		await m.idle();
		await flush();
		expectAnswerAsSaved(m, "The story begins and then");
		expect(m.last().querySelector(".discover-chat-message-stopped")).not.toBeNull();
	});

	it("done: the whole answer, with its actions and no Continue", async () => {
		const m = await stoppedAnswer();
		await continueWith(m, { reply: " and ends.", chunkSize: 4 });
		await m.idle();
		await until(() => m.bodies().join("|") === "Tell me a story|The story begins and ends.", "the continued answer");
		expect(m.last().querySelector(".discover-chat-regenerate")).not.toBeNull();
		expect(m.last().querySelector(".discover-chat-continue")).toBeNull();
	});
});
