// An edit that never gets saved (stopped, or the store refuses its message) leaves the chat on the
// branch it was on, in memory and in the file: the edited message stays there to edit again, and
// the caller still holds the new text.
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import { chatErrorCode } from "../../src/chat/errors";
import { errorKind } from "../../src/providers/errors";
import { SessionManager } from "../../src/sessions/SessionManager";
import type { ChatMessage } from "../../src/core/types";
import { StubAdapter } from "../support/stubAdapter";
import { copyStore, sleep, until } from "../support/chatHarness";
import { PickyStore } from "../support/pickyStore";

/** Waits for an asynchronous condition (the file, read back). */
async function eventually(cond: () => Promise<boolean>, what: string): Promise<void> {
	for (let i = 0; i < 500; i++) {
		if (await cond()) return;
		await sleep(2);
	}
	throw new Error(`Timed out waiting for ${what}`);
}

const texts = (messages: readonly ChatMessage[]): string[] => messages.filter((m) => m.role !== "system").map((m) => m.content);

async function twoTurns() {
	const store = new PickyStore();
	const sessions = new SessionManager(store, { onWarning: () => undefined });
	const chat = new ChatService({ adapter: new StubAdapter({ reply: (_r, i) => `answer ${i + 1}` }), sessions, settings: { maxPromptTokens: 8192, reservedResponseTokens: 256 } });
	await chat.sendMessage("one");
	await chat.sendMessage("two");
	const reload = async (): Promise<string[]> => texts((await new SessionManager(copyStore(store)).load(chat.sessionId!)).messages);
	return { store, sessions, chat, reload, two: chat.messages[2]! };
}

describe("an edit that is never saved", () => {
	it("stopped while its message is being saved: the chat stays on its branch, on screen and in the file", async () => {
		const { store, chat, reload, two } = await twoTurns();
		store.text = "two, edited";
		const stop = new AbortController();
		const edit = chat.editMessage(two.id, "two, edited", { signal: stop.signal }).catch((e: unknown) => e);
		await until(() => store.waiting > 0, "the edited message being saved");
		stop.abort();
		const err = await edit;
		expect(errorKind(err)).toBe("aborted");
		expect(texts(chat.messages)).toEqual(["one", "answer 1", "two", "answer 2"]);
		// The save lands late: the file still opens on the branch the person was on.
		store.releaseAll();
		await eventually(async () => (await reload()).join("|") === "one|answer 1|two|answer 2", "the file back on its branch");
		expect(chat.busy).toBe(false);
		// The message can be edited again, and this time it is.
		store.text = undefined;
		await chat.editMessage(two.id, "two, edited again");
		expect(texts(chat.messages)).toEqual(["one", "answer 1", "two, edited again", "answer 3"]);
		expect(await reload()).toEqual(texts(chat.messages));
	});

	it("whose message the store refuses: a storage error with the text, and the chat on its branch", async () => {
		const { store, chat, reload, two } = await twoTurns();
		store.text = "two, edited";
		store.mode = "refuse";
		const err = await chat.editMessage(two.id, "two, edited").catch((e: unknown) => e);
		expect(chatErrorCode(err)).toBe("storage");
		expect((err as { text?: string }).text).toBe("two, edited");
		expect(texts(chat.messages)).toEqual(["one", "answer 1", "two", "answer 2"]);
		await eventually(async () => (await reload()).join("|") === "one|answer 1|two|answer 2", "the file back on its branch");
	});

	it("stopped after its message was saved keeps the edited message and the partial answer", async () => {
		const { chat, reload, two } = await twoTurns();
		chat.setAdapter(new StubAdapter({ hangAfter: "part of an", chunkSize: 4 }));
		const stop = new AbortController();
		let streamed = "";
		const edit = chat.editMessage(two.id, "two, edited", { signal: stop.signal, onToken: (d) => (streamed += d) });
		await until(() => streamed === "part of an", "the partial answer");
		stop.abort();
		const answer = await edit;
		expect(answer.cancelled).toBe(true);
		expect(texts(chat.messages)).toEqual(["one", "answer 1", "two, edited", "part of an"]);
		await eventually(async () => (await reload()).join("|") === "one|answer 1|two, edited|part of an", "the stopped edit in the file");
	});
});
