import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/core/types";
import { sleep } from "../support/chatHarness";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";

/** Appends to files matching `hang` wait until released: a stuck disk or sync lock. */
class HangingStore extends MemoryFileStore {
	hang: (path: string) => boolean = () => false;
	readonly held: (() => void)[] = [];

	override append(path: string, data: string): Promise<void> {
		if (!this.hang(path)) return super.append(path, data);
		return new Promise<void>((resolve) => this.held.push(() => void super.append(path, data).then(resolve)));
	}
}

const message = (id: string, content: string): ChatMessage => ({ id, role: "user", content, createdAt: "2025-01-01T00:00:00.000Z" });
const tick = (): Promise<void> => sleep(5);

describe("SessionManager with a write that hangs", () => {
	it("an abandoned write no longer holds up other chats, yet lands first in its own chat, with nothing lost", async () => {
		const store = new HangingStore();
		const sessions = new SessionManager(store, { onWarning: () => undefined });
		const stuck = await sessions.create();
		const other = await sessions.create();
		store.hang = (path) => path.includes(stuck.id);
		const controller = new AbortController();
		const abandoned = sessions.appendMessage(stuck.id, message("a", "held"), { signal: controller.signal });
		await tick();
		expect(store.held).toHaveLength(1);
		controller.abort();
		await expect(abandoned).rejects.toMatchObject({ name: "AbortError" });
		// The queue moves on: other chats, new chats and the list answer at once.
		await sessions.appendMessage(other.id, message("b", "elsewhere"));
		await expect(sessions.create()).resolves.toMatchObject({ title: "New chat" });
		expect((await sessions.list()).length).toBe(3);
		// The stuck chat's next write waits for the abandoned one, so the file keeps their order.
		store.hang = () => false;
		let later = false;
		const next = sessions.appendMessage(stuck.id, message("c", "after")).then(() => (later = true));
		await tick();
		expect(later).toBe(false);
		for (const release of store.held.splice(0)) release();
		await next;
		expect((await sessions.load(stuck.id)).messages.map((m) => m.content)).toEqual(["held", "after"]);
		expect((await sessions.load(other.id)).messages.map((m) => m.content)).toEqual(["elsewhere"]);
	});

	it("a write abandoned before its turn is not written, unless it is to be kept", async () => {
		const store = new HangingStore();
		const sessions = new SessionManager(store, { onWarning: () => undefined });
		const chat = await sessions.create();
		store.hang = () => true;
		const first = sessions.appendMessage(chat.id, message("a", "first"));
		const controller = new AbortController();
		const dropped = sessions.appendMessage(chat.id, message("b", "dropped"), { signal: controller.signal });
		const kept = sessions.appendMessage(chat.id, message("c", "kept"), { signal: controller.signal, keep: true });
		controller.abort();
		await expect(dropped).rejects.toMatchObject({ name: "AbortError" });
		store.hang = () => false;
		await tick();
		for (const release of store.held.splice(0)) release();
		await first;
		await kept;
		expect((await sessions.load(chat.id)).messages.map((m) => m.content)).toEqual(["first", "kept"]);
	});
});
