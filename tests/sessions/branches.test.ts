import { describe, expect, it } from "vitest";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { parseSessionFile } from "../../src/sessions/records";
import { SessionManager } from "../../src/sessions/SessionManager";
import type { ChatMessage } from "../../src/core/types";
import { message, steppingClock } from "./helpers";

const contents = (messages: readonly ChatMessage[]): string[] => messages.map((m) => m.content);

async function fileOf(store: MemoryFileStore, id: string): Promise<string> {
	return store.read(`sessions/${id}.jsonl`);
}

/** q1 a1 q2 a2, then a2 regenerated as a2b, then q2 edited as q2b with its answer a3. */
async function branched(store = new MemoryFileStore()) {
	const sessions = new SessionManager(store, { now: steppingClock(), onWarning: () => undefined });
	const { id } = await sessions.create();
	let n = 0;
	const add = async (role: ChatMessage["role"], content: string): Promise<ChatMessage> => {
		const m = message(role, content, ++n);
		await sessions.appendMessage(id, m);
		return m;
	};
	await add("user", "q1");
	const a1 = await add("assistant", "a1");
	const q2 = await add("user", "q2");
	const a2 = await add("assistant", "a2");
	await sessions.branchAt(id, q2.id);
	const a2b = await add("assistant", "a2b");
	await sessions.branchBefore(id, q2.id);
	const q2b = await add("user", "q2b");
	const a3 = await add("assistant", "a3");
	return { sessions, store, id, a1, q2, a2, a2b, q2b, a3 };
}

describe("session files with branches", () => {
	it("a file written before branches (no parents, no switch) loads as one linear branch", async () => {
		const store = new MemoryFileStore();
		const lines = [
			{ type: "session", v: 1, id: "old", createdAt: "2025-01-01T00:00:00.000Z", title: "New chat", at: "2025-01-01T00:00:00.000Z" },
			{ type: "message", message: message("user", "hello", 1) },
			{ type: "message", message: message("assistant", "hi there", 2) },
			{ type: "message", message: message("user", "more", 3) },
		];
		await store.mkdir("sessions");
		await store.write("sessions/old.jsonl", lines.map((l) => JSON.stringify(l) + "\n").join(""));
		const session = await new SessionManager(store).load("old");
		expect(contents(session.messages)).toEqual(["hello", "hi there", "more"]);
	});

	it("loads the active branch only; alternatives list the siblings in order", async () => {
		const { sessions, id, q2, q2b, a2, a2b } = await branched();
		expect(contents((await sessions.load(id)).messages)).toEqual(["q1", "a1", "q2b", "a3"]);
		expect(await sessions.alternatives(id, q2b.id)).toEqual({ ids: [q2.id, q2b.id], index: 1 });
		expect(await sessions.alternatives(id, a2.id)).toEqual({ ids: [a2.id, a2b.id], index: 0 });
		// Switching to q2 opens its newest descendant: the regenerated answer.
		expect(contents((await sessions.switchBranch(id, q2.id)).messages)).toEqual(["q1", "a1", "q2", "a2b"]);
	});

	it("appending only: every branch's text stays in the file, and a reload reproduces the active branch", async () => {
		const { sessions, store, id } = await branched();
		const text = await fileOf(store, id);
		for (const word of ["q1", "a1", "q2", "a2", "a2b", "q2b", "a3"]) expect(text).toContain(`"${word}"`);
		const fresh = new SessionManager(store);
		expect(await fresh.load(id)).toEqual(await sessions.load(id));
	});

	it("a rewrite (updateSession, compaction) keeps every branch, the hidden turns and the active branch", async () => {
		const { sessions, store, id, a1, q2, q2b } = await branched();
		await sessions.setTurnHidden(id, a1.id, true);
		const before = await sessions.load(id);
		await sessions.updateSession(before);
		const fresh = new SessionManager(store);
		// A rewrite counts as an update (updatedAt); the branch is the same.
		expect((await fresh.load(id)).messages).toEqual(before.messages);
		expect(contents(await fresh.hiddenTurns(id))).toEqual(["q1"]);
		expect((await fresh.alternatives(id, q2b.id)).ids).toEqual([q2.id, q2b.id]);
		expect(contents((await fresh.switchBranch(id, q2.id)).messages)).toEqual(["q2", "a2b"]);
	});

	it("a rewritten chat without branches has no parent fields or switch records (older versions read it as before)", async () => {
		const store = new MemoryFileStore();
		const sessions = new SessionManager(store, { now: steppingClock() });
		const { id } = await sessions.create();
		await sessions.appendMessage(id, message("user", "q", 1));
		await sessions.appendMessage(id, message("assistant", "a", 2));
		await sessions.updateSession(await sessions.load(id));
		const text = await fileOf(store, id);
		expect(text).not.toContain('"parent"');
		expect(text).not.toContain('"switch"');
	});

	it("hiding a turn a summary covers drops that summary (its text would otherwise still be sent)", async () => {
		const { sessions, id, a1, a3 } = await branched();
		await sessions.setSummary(id, { id: "s1", role: "system", content: "they said q1", createdAt: "2026-01-02T00:00:00.000Z", summaryOf: a1.id });
		expect((await sessions.load(id)).messages[0]?.content).toBe("they said q1");
		await sessions.setTurnHidden(id, a1.id, true);
		expect((await sessions.load(id)).messages[0]?.role).toBe("user");
		expect(a3.content).toBe("a3");
	});

	it("a summary is used only on branches through the message it covers", async () => {
		const { sessions, id, a3, q2 } = await branched();
		await sessions.setSummary(id, { id: "s1", role: "system", content: "up to a3", createdAt: "2026-01-02T00:00:00.000Z", summaryOf: a3.id });
		expect((await sessions.load(id)).messages[0]?.content).toBe("up to a3");
		const other = await sessions.switchBranch(id, q2.id);
		expect(other.messages.some((m) => m.role === "system")).toBe(false);
	});

	it("search finds every branch's text, names the branch, and load({ at }) opens it", async () => {
		const { sessions, id, a2, a2b } = await branched();
		const [hit] = await sessions.search("a2");
		expect(hit).toMatchObject({ messageId: a2.id, onActiveBranch: false, leafId: a2.id });
		const [other] = await sessions.search("a2b");
		expect(other).toMatchObject({ messageId: a2b.id, onActiveBranch: false, leafId: a2b.id });
		expect(contents((await sessions.load(id, { at: a2.id })).messages)).toEqual(["q1", "a1", "q2", "a2"]);
		const [now] = await sessions.search("a2");
		expect(now?.onActiveBranch).toBe(true);
	});

	it("the history list counts and previews the active branch as shown (hidden turns left out)", async () => {
		const { sessions, id, q2b } = await branched();
		const row = async () => (await sessions.list()).find((r) => r.id === id);
		expect(await row()).toMatchObject({ messageCount: 4, preview: "a3", title: "q1" });
		await sessions.setTurnHidden(id, q2b.id, true);
		expect(await row()).toMatchObject({ messageCount: 2, preview: "a1", title: "q1" });
	});

	it("switch and hide lines that are damaged are kept as unreadable lines, and the chat still loads", () => {
		const parsed = parseSessionFile('{"type":"switch","leaf":7,"at":"x"}\n{"type":"hide","id":"m1","at":"x"}\n');
		expect(parsed.records.map((r) => r.type)).toEqual(["corrupt", "corrupt"]);
		expect(parsed.problems.map((p) => p.reason)).toEqual(["bad switch record", "bad hide record"]);
	});

	it("a message whose parent the file does not hold continues the active branch", async () => {
		const store = new MemoryFileStore();
		await store.mkdir("sessions");
		const lines = [
			{ type: "session", v: 1, id: "p", createdAt: "2025-01-01T00:00:00.000Z", title: "New chat" },
			{ type: "message", message: message("user", "one", 1) },
			{ type: "message", message: message("assistant", "two", 2), parent: "gone" },
		];
		await store.write("sessions/p.jsonl", lines.map((l) => JSON.stringify(l) + "\n").join(""));
		expect(contents((await new SessionManager(store).load("p")).messages)).toEqual(["one", "two"]);
	});
});
