// Session warnings reach the listener with their code and values as well as their English, so the
// panel can show them in the person's language (core/notices.ts).
import { describe, expect, it } from "vitest";
import { message, steppingClock } from "./helpers";
import type { Notice } from "../../src/core/notices";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { INDEX_PATH } from "../../src/sessions/indexFile";

function manager(store: MemoryFileStore, notices: (Notice | undefined)[]): SessionManager {
	return new SessionManager(store, { now: steppingClock(), onWarning: (_message, notice) => notices.push(notice), recheckMs: 0 });
}

describe("session warnings as data", () => {
	it("a skipped line names its chat and line; the reason goes apart, for Details", async () => {
		const store = new MemoryFileStore();
		const { id } = await manager(store, []).create();
		await manager(store, []).appendMessage(id, message("user", "first", 1));
		const path = `sessions/${id}.jsonl`;
		const lines = (store.files.get(path) ?? "").split("\n");
		lines.splice(1, 0, "garbage {not json");
		await store.write(path, lines.join("\n"));
		const notices: (Notice | undefined)[] = [];
		await manager(store, notices).load(id);
		expect(notices).toEqual([{ code: "session_line_skipped", params: { id, line: 2 }, detail: expect.any(String) as string }]);
	});

	it("an unreadable index says so by code", async () => {
		const store = new MemoryFileStore();
		await manager(store, []).create();
		await store.write(INDEX_PATH, "{ not an index");
		const notices: (Notice | undefined)[] = [];
		await manager(store, notices).list();
		expect(notices).toContainEqual({ code: "session_index_unreadable" });
	});
});
