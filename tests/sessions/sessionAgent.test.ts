// The agent saved with a chat: an additive `agent` record (its note's path) beside the model record;
// it comes back on load, the latest pick winning, survives rewrites, and a damaged one is kept as an
// unreadable line, never losing the chat.
import { describe, expect, it } from "vitest";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { message, steppingClock } from "./helpers";

function setup(): { store: MemoryFileStore; manager: SessionManager; warnings: string[] } {
	const store = new MemoryFileStore();
	const warnings: string[] = [];
	const manager = new SessionManager(store, { now: steppingClock(), onWarning: (w) => warnings.push(w) });
	return { store, manager, warnings };
}

describe("the agent saved with a chat", () => {
	it("comes back after a restart with the chat's model, the latest pick winning", async () => {
		const { store, manager } = setup();
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "Hello", 1));
		await manager.setAgent(id, "Discover/Agents/Default.md");
		await manager.setModel(id, "llama3.2");
		await manager.setAgent(id, " Discover/Agents/Writer.md ");
		const loaded = await new SessionManager(store).load(id);
		expect(loaded.agent).toBe("Discover/Agents/Writer.md");
		expect(loaded.model).toBe("llama3.2");
		expect(store.files.get(`sessions/${id}.jsonl`)).toContain('{"type":"agent","agent":"Discover/Agents/Writer.md"');
	});

	it("is absent on a chat that never had one", async () => {
		const { manager } = setup();
		const { id } = await manager.create();
		expect("agent" in (await manager.load(id))).toBe(false);
	});

	it("survives a full rewrite and keeps its time", async () => {
		const { store, manager } = setup();
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "Hi", 1));
		await manager.setAgent(id, "Discover/Agents/Writer.md");
		const line = () => (store.files.get(`sessions/${id}.jsonl`) ?? "").split("\n").find((l) => l.includes('"type":"agent"'));
		const before = line();
		await manager.updateSession(await manager.load(id));
		expect(line()).toBe(before);
		expect((await new SessionManager(store).load(id)).agent).toBe("Discover/Agents/Writer.md");
	});

	it("refuses an empty path; a damaged record is kept as an unreadable line with a warning", async () => {
		const { store, manager, warnings } = setup();
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "Keep me", 1));
		await expect(manager.setAgent(id, " ")).rejects.toThrow(/cannot be empty/);
		const path = `sessions/${id}.jsonl`;
		store.files.set(path, (store.files.get(path) ?? "") + JSON.stringify({ type: "agent", agent: 7, at: "2026-01-01T00:00:00.000Z" }) + "\n");
		const loaded = await new SessionManager(store, { onWarning: (w) => warnings.push(w) }).load(id);
		expect(loaded.agent).toBeUndefined();
		expect(loaded.messages.map((m) => m.content)).toEqual(["Keep me"]);
		expect(warnings.join("\n")).toMatch(/bad agent record/);
	});
});
