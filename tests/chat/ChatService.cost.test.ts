import { describe, expect, it, vi } from "vitest";
import { StubAdapter } from "../support/stubAdapter";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { ChatService } from "../../src/chat/ChatService";
import * as tokens from "../../src/chat/tokens";

// Counts the characters the engine estimates, as a measure of work that does not depend on timing.
const counter = vi.hoisted(() => ({ chars: 0 }));
vi.mock("../../src/chat/tokens", async (importOriginal) => {
	const original = await importOriginal<typeof tokens>();
	return {
		...original,
		estimateTokens: (text: string): number => {
			counter.chars += text.length;
			return original.estimateTokens(text);
		},
	};
});

async function charsPerSend(sessionLength: number): Promise<number> {
	const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
	const session = await sessions.create();
	for (let i = 0; i < sessionLength; i++) {
		const role = i % 2 === 0 ? "user" : "assistant";
		await sessions.appendMessage(session.id, { id: `m${String(i).padStart(6, "0")}`, role, content: `${role} message ${i} about the vault and its notes`, createdAt: "2026-01-01T00:00:00.000Z" });
	}
	const chat = new ChatService({ adapter: new StubAdapter({ noDelay: true }), sessions });
	await chat.loadSession(session.id);
	const note = Array.from({ length: 3000 }, (_, i) => `Line ${i} of the note.`).join("\n");
	// The first sends summarize the prebuilt history once; measure the steady state after them.
	for (let i = 0; i < 3; i++) await chat.sendMessage(`Warm-up ${i}`, { context: note });
	counter.chars = 0;
	const sends = 10;
	for (let i = 0; i < sends; i++) await chat.sendMessage(`Question ${i} about the note`, { context: note });
	return counter.chars / sends;
}

describe("ChatService cost", () => {
	it("estimates about as much per send in a 6,000-message session as in a 60-message one", async () => {
		const short = await charsPerSend(60);
		const long = await charsPerSend(6000);
		expect(short).toBeGreaterThan(0);
		expect(long).toBeLessThan(short * 1.5);
	});
});
