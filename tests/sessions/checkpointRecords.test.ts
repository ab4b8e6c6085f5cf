// The records behind checkpoints of a streaming answer: `interrupted` on a message,
// and the `discard` update that removes a failed answer's checkpoint.
import { describe, expect, it } from "vitest";
import { message, steppingClock } from "./helpers";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { asRecord } from "../../src/sessions/records";
import { SessionManager } from "../../src/sessions/SessionManager";
import { COMPACT_AFTER_CHARS } from "../../src/sessions/sessionFiles";
import { SessionState } from "../../src/sessions/sessionState";

describe("checkpoint records", () => {
	it("a long answer's checkpoints do not pile up: the file is compacted once their text passes a megabyte", async () => {
		const store = new MemoryFileStore();
		const manager = new SessionManager(store, { now: steppingClock() });
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "Write a long answer", 1));
		// 60 checkpoints of an answer growing to 64,000 characters: 1.9 M characters in all.
		const chunk = "The answer goes on. ".repeat(60);
		let text = "";
		for (let i = 0; i < 60; i++) {
			text += chunk.slice(0, 1067);
			const checkpoint = message("assistant", text, 2, { interrupted: true });
			if (i === 0) await manager.appendMessage(id, checkpoint);
			else await manager.updateMessage(id, checkpoint);
		}
		await manager.updateMessage(id, message("assistant", text, 2));
		const file = store.files.get(`sessions/${id}.jsonl`) ?? "";
		expect(text.length).toBeGreaterThan(64_000);
		expect(file.length).toBeLessThan(COMPACT_AFTER_CHARS + 2 * text.length);
		const fresh = await new SessionManager(store).load(id);
		expect(fresh.messages.map((m) => [m.content.length, m.interrupted ?? false])).toEqual([
			[19, false],
			[text.length, false],
		]);
	});


	it("keeps interrupted: true on a message through a reload and a rewrite, and refuses a non-boolean", async () => {
		const store = new MemoryFileStore();
		const manager = new SessionManager(store, { now: steppingClock() });
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "Question", 1));
		await manager.appendMessage(id, message("assistant", "Half an answ", 2, { interrupted: true }));
		const fresh = await new SessionManager(store).load(id);
		expect(fresh.messages[1]).toMatchObject({ content: "Half an answ", interrupted: true });
		await manager.updateSession(fresh);
		expect((await new SessionManager(store).load(id)).messages[1]).toMatchObject({ interrupted: true });
		expect(asRecord({ type: "message", message: { ...message("assistant", "x", 3), interrupted: "yes" } })).toBe("bad message in a message record");
	});

	it("a discard update removes the message, for this manager, a fresh one and after compaction", async () => {
		const store = new MemoryFileStore();
		const manager = new SessionManager(store, { now: steppingClock() });
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "Question", 1));
		const checkpoint = message("assistant", "Partial", 2, { interrupted: true });
		await manager.appendMessage(id, checkpoint);
		await manager.appendMessage(id, message("user", "Later", 3));
		await manager.discardMessage(id, { ...checkpoint, content: "", error: "The answer failed before it finished." });
		const expected = ["Question", "Later"];
		expect((await manager.load(id)).messages.map((m) => m.content)).toEqual(expected);
		expect((await new SessionManager(store).load(id)).messages.map((m) => m.content)).toEqual(expected);
		// The message after the removed one is still addressable by id: an update replaces it in place.
		await manager.updateMessage(id, message("user", "Later, edited", 3));
		expect((await new SessionManager(store).load(id)).messages.map((m) => m.content)).toEqual(["Question", "Later, edited"]);
		await manager.updateSession(await manager.load(id));
		const file = store.files.get(`sessions/${id}.jsonl`) ?? "";
		expect(file).not.toContain("Partial");
		expect((await new SessionManager(store).load(id)).messages.map((m) => m.content)).toEqual(["Question", "Later, edited"]);
	});

	it("a removed checkpoint is not brought back by an older copy of it merged from another writer", () => {
		const checkpoint = message("assistant", "Partial", 2, { interrupted: true });
		const state = SessionState.fromRecords("s", [
			{ type: "message", message: message("user", "Question", 1), at: "2026-01-01T00:00:01.000Z" },
			{ type: "message", message: checkpoint, at: "2026-01-01T00:00:02.000Z" },
			{ type: "update", message: { ...checkpoint, content: "" }, at: "2026-01-01T00:00:03.000Z", discard: true },
		], "2026-01-01T00:00:00.000Z");
		state.merge({ type: "message", message: checkpoint, at: "2026-01-01T00:00:02.000Z" });
		expect(state.transcript.map((m) => m.content)).toEqual(["Question"]);
	});

	it("exports an interrupted answer marked as such", async () => {
		const manager = new SessionManager(new MemoryFileStore(), { now: steppingClock() });
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "Question", 1));
		await manager.appendMessage(id, message("assistant", "Half an answ", 2, { interrupted: true }));
		const md = await manager.exportMarkdown(id);
		expect(md).toContain("Half an answ\n\n*(Interrupted: the app closed while this answer was written.)*");
	});
});
