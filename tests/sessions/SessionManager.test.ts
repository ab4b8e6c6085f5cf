import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/core/types";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager, SessionNotFoundError } from "../../src/sessions/SessionManager";
import { message, steppingClock } from "./helpers";

function setup(): { store: MemoryFileStore; manager: SessionManager; warnings: string[] } {
	const store = new MemoryFileStore();
	const warnings: string[] = [];
	const manager = new SessionManager(store, { now: steppingClock(), onWarning: (w) => warnings.push(w) });
	return { store, manager, warnings };
}

describe("SessionManager basics", () => {
	it("creates an empty session titled New chat and persists it at once", async () => {
		const { store, manager } = setup();
		const session = await manager.create();
		expect(session.title).toBe("New chat");
		expect(session.messages).toEqual([]);
		const header = JSON.parse(store.files.get(`sessions/${session.id}.jsonl`) ?? "") as Record<string, unknown>;
		expect(header).toMatchObject({ type: "session", v: 1, id: session.id, title: "New chat" });
		const fresh = new SessionManager(store);
		expect((await fresh.load(session.id)).id).toBe(session.id);
	});

	it("appends messages and loads them back in order after a restart", async () => {
		const { store, manager } = setup();
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "Hello there\nsecond line", 1));
		await manager.appendMessage(id, message("assistant", "Hi!", 2));
		const loaded = await new SessionManager(store).load(id);
		expect(loaded.messages.map((m) => m.content)).toEqual(["Hello there\nsecond line", "Hi!"]);
		expect(loaded.title).toBe("Hello there");
		const lines = (store.files.get(`sessions/${id}.jsonl`) ?? "").split("\n");
		expect(lines).toHaveLength(4); // header, two messages, "" after the final newline
	});

	it("shortens a long first line into a title with an ellipsis", async () => {
		const { manager } = setup();
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "word ".repeat(40), 1));
		const { title } = await manager.load(id);
		expect(title.length).toBeLessThanOrEqual(60);
		expect(title.endsWith("…")).toBe(true);
	});

	it("keeps a renamed title over the first message", async () => {
		const { store, manager } = setup();
		const { id } = await manager.create();
		await manager.rename(id, "  My   topic ");
		await manager.appendMessage(id, message("user", "Question", 1));
		expect((await new SessionManager(store).load(id)).title).toBe("My topic");
	});

	it("puts the one summary at index 0 and keeps the transcript", async () => {
		const { store, manager } = setup();
		const { id } = await manager.create();
		for (let i = 1; i <= 4; i++) await manager.appendMessage(id, message(i % 2 ? "user" : "assistant", `t${i}`, i));
		await manager.setSummary(id, message("system", "first summary", 10, { summaryOf: "m2" }));
		await manager.setSummary(id, message("system", "second summary", 11, { summaryOf: "m4" }));
		const loaded = await new SessionManager(store).load(id);
		expect(loaded.messages[0]).toMatchObject({ role: "system", content: "second summary", summaryOf: "m4" });
		expect(loaded.messages.filter((m) => m.role === "system")).toHaveLength(1);
		expect(loaded.messages.slice(1).map((m) => m.content)).toEqual(["t1", "t2", "t3", "t4"]);
	});

	it("applies updateMessage in place (a stopped answer)", async () => {
		const { store, manager } = setup();
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "q", 1));
		await manager.appendMessage(id, message("assistant", "par", 2));
		await manager.updateMessage(id, message("assistant", "partial", 2, { cancelled: true }));
		const loaded = await new SessionManager(store).load(id);
		expect(loaded.messages).toHaveLength(2);
		expect(loaded.messages[1]).toMatchObject({ content: "partial", cancelled: true });
	});

	it("rejects unknown ids, ids that could leave the folder and a system message in appendMessage", async () => {
		const { manager } = setup();
		await expect(manager.load("nope")).rejects.toBeInstanceOf(SessionNotFoundError);
		await expect(manager.load("../index")).rejects.toThrow(/not found/);
		await expect(manager.appendMessage("nope", message("user", "x", 1))).rejects.toThrow(/Session not found: nope/);
		const { id } = await manager.create();
		await expect(manager.appendMessage(id, message("system", "x", 1))).rejects.toThrow(/setSummary/);
		await expect(manager.setSummary(id, message("user", "x", 1))).rejects.toThrow(/system/);
	});

	it("lists newest first with counts and previews, and deletes", async () => {
		const { manager } = setup();
		const a = await manager.create();
		const b = await manager.create();
		await manager.appendMessage(a.id, message("user", "older chat", 1));
		await manager.appendMessage(a.id, message("assistant", "reply\nwith  lines", 2));
		await manager.setSummary(a.id, message("system", "s", 3));
		let list = await manager.list();
		expect(list.map((s) => s.id)).toEqual([a.id, b.id]);
		expect(list[0]).toMatchObject({ title: "older chat", messageCount: 2, preview: "reply with lines" });
		await manager.appendMessage(a.id, message("assistant", "", 4, { error: "Server down" }));
		expect((await manager.list())[0]).toMatchObject({ messageCount: 3, preview: "reply with lines" });
		await manager.delete(a.id);
		list = await manager.list();
		expect(list.map((s) => s.id)).toEqual([b.id]);
		await expect(manager.load(a.id)).rejects.toBeInstanceOf(SessionNotFoundError);
	});

	it("rewrites a session with updateSession and keeps its meaning", async () => {
		const { store, manager } = setup();
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "q", 1));
		await manager.appendMessage(id, message("assistant", "a", 2));
		await manager.updateMessage(id, message("assistant", "a2", 2));
		const session = await manager.load(id);
		await manager.updateSession({ ...session, title: "Renamed", messages: [message("system", "sum", 5), ...session.messages] });
		const text = store.files.get(`sessions/${id}.jsonl`) ?? "";
		expect(text.split("\n").filter((l) => l.includes('"type":"update"'))).toHaveLength(0);
		const loaded = await new SessionManager(store).load(id);
		expect(loaded.title).toBe("Renamed");
		expect(loaded.messages.map((m) => m.content)).toEqual(["sum", "q", "a2"]);
		expect([...store.files.keys()].some((k) => k.endsWith(".tmp"))).toBe(false);
	});

	it("calls onChange after each change", async () => {
		const { manager } = setup();
		const seen: string[] = [];
		manager.onChange = (id) => seen.push(id);
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "q", 1));
		await manager.rename(id, "t");
		expect(seen).toEqual([id, id, id]);
	});

	it("runs calls made without waiting in call order", async () => {
		const { store, manager } = setup();
		const { id } = await manager.create();
		const pending: Promise<unknown>[] = [];
		for (let i = 1; i <= 30; i++) {
			pending.push(manager.appendMessage(id, message(i % 2 ? "user" : "assistant", `n${i}`, i)));
			if (i % 10 === 0) pending.push(manager.updateSession({ ...(await manager.load(id)), title: `t${i}` }));
		}
		pending.push(manager.search("n3"));
		await Promise.all(pending);
		const loaded = await new SessionManager(store).load(id);
		expect(loaded.messages.map((m) => m.content)).toEqual(Array.from({ length: 30 }, (_, i) => `n${i + 1}`));
		expect(loaded.title).toBe("t30");
	});

	it("a failed call does not block the ones after it", async () => {
		const { manager } = setup();
		await expect(manager.load("missing")).rejects.toThrow();
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "still works", 1));
		expect((await manager.load(id)).messages).toHaveLength(1);
	});
});

describe("SessionManager input checks", () => {
	it("rejects (never throws synchronously) on a malformed message or an empty title", async () => {
		const { manager } = setup();
		const { id } = await manager.create();
		const bad = { id: "x", role: "user", content: 5, createdAt: "t" } as unknown as ChatMessage;
		let promise: Promise<void> | undefined;
		expect(() => (promise = manager.appendMessage(id, bad))).not.toThrow();
		await expect(promise).rejects.toThrow(/valid chat message/);
		await expect(manager.updateMessage(id, bad)).rejects.toThrow(/valid chat message/);
		await expect(manager.rename(id, "  \n ")).rejects.toThrow(/empty/);
		expect((await manager.load(id)).messages).toEqual([]);
	});
});

describe("forward compatibility", () => {
	it("keeps message fields this version does not know through appends, loads and rewrites", async () => {
		const { store, manager } = setup();
		const { id } = await manager.create();
		const extended = { ...message("assistant", "a", 1), model: "llama3.2", usage: { promptTokens: 12 } };
		await manager.appendMessage(id, extended);
		await manager.updateSession(await manager.load(id));
		expect((await new SessionManager(store).load(id)).messages[0]).toEqual(extended);
	});

	it("keeps an answer's thinking; a damaged thinking field is dropped, never the answer", async () => {
		const { store, manager } = setup();
		const { id } = await manager.create();
		await manager.appendMessage(id, message("assistant", "kept", 1, { thinking: "Hmm.", thinkingMs: 1200 }));
		await manager.appendMessage(id, { ...message("assistant", "also kept", 2), thinking: 42, thinkingMs: "soon" } as unknown as ChatMessage);
		const loaded = (await new SessionManager(store).load(id)).messages;
		expect(loaded.map((m) => [m.content, m.thinking, m.thinkingMs])).toEqual([
			["kept", "Hmm.", 1200],
			["also kept", undefined, undefined],
		]);
	});
});
