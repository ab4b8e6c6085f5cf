// Image references in session files: kept across a reload, damaged ones dropped (never the message),
// and embedded in the Markdown export as vault embeds.
import { describe, expect, it } from "vitest";
import type { ChatMessage, ImageRef } from "../../src/core/types";
import { asChatMessage } from "../../src/sessions/records";
import { imageEmbed, sessionToMarkdown } from "../../src/sessions/markdown";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";

const image: ImageRef = { path: "Discover/Chats/attachments/diagram 1.png", mediaType: "image/png", width: 800, height: 600, bytes: 12345 };
const user: ChatMessage = { id: "m1", role: "user", content: "See this", createdAt: "2026-01-01T00:00:00.000Z", attachments: [image] };

describe("image references in sessions", () => {
	it("survive a save and a reload", async () => {
		const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
		const session = await sessions.create();
		await sessions.appendMessage(session.id, user);
		const loaded = await sessions.load(session.id);
		expect(loaded.messages[0]?.attachments).toEqual([image]);
	});

	it("drop a damaged reference but keep the message and the good ones", () => {
		const message = asChatMessage({ ...user, attachments: [image, { path: 3 }, "x", { ...image, width: "wide" }] });
		expect(message?.content).toBe("See this");
		expect(message?.attachments).toEqual([image]);
		expect(asChatMessage({ ...user, attachments: "nope" })?.attachments).toBeUndefined();
	});

	it("are embedded in the Markdown export", () => {
		const md = sessionToMarkdown({ id: "s", title: "T", createdAt: "a", updatedAt: "b", messages: [user] });
		expect(md).toContain("![[Discover/Chats/attachments/diagram 1.png]]");
	});

	it("cannot close the embed early or add a heading link", () => {
		expect(imageEmbed("a]]b|c#d^e.png")).toBe("![[abcde.png]]");
	});
});
