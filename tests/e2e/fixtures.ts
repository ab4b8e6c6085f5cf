// Saved chats for the browser test, written by the real SessionManager so the plugin reads them
// exactly as it reads its own files.
import { newId } from "../../src/sessions/ids";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";

export interface SessionFixture {
	id: string;
	title: string;
	/** Vault-relative path → content, for the vault adapter. */
	files: Record<string, string>;
}

/**
 * One session of `count` messages (alternating question and answer) under `folder`, after
 * `otherChats` older two-message chats (a history that has grown over a year).
 */
export async function longSessionFiles(count: number, folder: string, otherChats = 0): Promise<SessionFixture> {
	const store = new MemoryFileStore();
	let clock = Date.UTC(2025, 0, 1, 9, 0, 0);
	const sessions = new SessionManager(store, { now: () => clock });
	for (let i = 0; i < otherChats; i++) {
		clock += 8 * 3600_000;
		const chat = await sessions.create();
		await sessions.appendMessage(chat.id, { id: newId(clock), role: "user", content: `Old question ${i} about chapter ${i % 40}?`, createdAt: new Date(clock).toISOString() });
		clock += 1000;
		await sessions.appendMessage(chat.id, { id: newId(clock), role: "assistant", content: `Old answer ${i}: it depends on the context.`, createdAt: new Date(clock).toISOString() });
	}
	clock = Date.UTC(2026, 0, 5, 9, 0, 0);
	const session = await sessions.create();
	for (let i = 0; i < count; i++) {
		clock += 30_000;
		const user = i % 2 === 0;
		const content = user
			? `Message ${i}: what does step ${i / 2} of the process involve?`
			: `Message ${i}: step ${(i - 1) / 2} moves electrons along the chain.\n\n- It needs **light**.\n- It makes \`ATP\`.\n\nSee [[Photosynthesis]].`;
		await sessions.appendMessage(session.id, { id: newId(clock), role: user ? "user" : "assistant", content, createdAt: new Date(clock).toISOString() });
	}
	const title = "A long conversation";
	await sessions.rename(session.id, title);
	await sessions.flush();
	const files: Record<string, string> = {};
	for (const [path, data] of store.files) files[`${folder}/${path}`] = data;
	return { id: session.id, title, files };
}
