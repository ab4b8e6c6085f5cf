import { describe, expect, it } from "vitest";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { asChatMessage, encodeRecord } from "../../src/sessions/records";
import { SessionManager } from "../../src/sessions/SessionManager";
import type { ChatMessage, SourceFit } from "../../src/core/types";

const FITS: SourceFit[] = [
	{ id: "selection", name: "Selection", totalTokens: 12, sentTokens: 12, fit: "whole" },
	{ id: "Log.md", name: "Log", totalTokens: 90_000, sentTokens: 1800, fit: "excerpts", passages: [{ start: 0, end: 2400, headingPath: "2024 > March" }] },
	{ id: "Far.md", name: "Far", totalTokens: 40, sentTokens: 0, fit: "none" },
];

const answer = (extra: Partial<ChatMessage>): ChatMessage => ({ id: "a1", role: "assistant", content: "Answer.", createdAt: "2025-01-01T00:00:00.000Z", ...extra });

describe("an answer's sources on disk", () => {
	it("round-trips through a session file and loads back unchanged", async () => {
		const store = new MemoryFileStore();
		const sessions = new SessionManager(store, { onWarning: () => undefined });
		const session = await sessions.create();
		await sessions.appendMessage(session.id, { id: "u1", role: "user", content: "Q", createdAt: "2025-01-01T00:00:00.000Z" });
		await sessions.appendMessage(session.id, answer({ sources: FITS }));
		const loaded = await new SessionManager(store, { onWarning: () => undefined }).load(session.id);
		expect(loaded.messages[1]?.sources).toEqual(FITS);
	});

	it("drops a damaged entry or passage and keeps the answer; a message without sources loads as before", () => {
		const damaged = asChatMessage(
			(JSON.parse(
				encodeRecord({
					type: "message",
					message: answer({
						sources: [
							FITS[0],
							{ id: "x", name: "X", totalTokens: -1, sentTokens: 0, fit: "whole" },
							{ id: 7, name: "Y" },
							{ ...FITS[1], passages: [{ start: 5, end: 2 }, { start: 1, end: 3, headingPath: 4 }] },
						] as unknown as SourceFit[],
					}),
				}),
			) as { message: unknown }).message,
		);
		expect(damaged?.content).toBe("Answer.");
		expect(damaged?.sources).toEqual([FITS[0], { ...FITS[1], passages: [{ start: 1, end: 3, headingPath: "" }] }]);
		const notAList = asChatMessage({ ...answer({}), sources: "Log.md" });
		expect(notAList?.content).toBe("Answer.");
		expect(notAList !== undefined && "sources" in notAList).toBe(false);
		expect(asChatMessage(answer({}))).toEqual(answer({}));
	});
});
