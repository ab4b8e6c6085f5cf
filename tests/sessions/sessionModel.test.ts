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

describe("the model saved with a chat", () => {
	it("comes back after a restart, the latest pick winning", async () => {
		const { store, manager } = setup();
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "Hello", 1));
		await manager.setModel(id, "llama3.2");
		await manager.setModel(id, " qwen3:8b ");
		const loaded = await new SessionManager(store).load(id);
		expect(loaded.model).toBe("qwen3:8b");
		expect(loaded.messages.map((m) => m.content)).toEqual(["Hello"]);
		expect(store.files.get(`sessions/${id}.jsonl`)).toContain('{"type":"model","model":"qwen3:8b"');
	});

	it("is absent on a chat that never picked one", async () => {
		const { manager } = setup();
		const { id } = await manager.create();
		const loaded = await manager.load(id);
		expect(loaded.model).toBeUndefined();
		expect("model" in loaded).toBe(false);
	});

	it("loads files written before the field existed, without a warning", async () => {
		const { store, warnings } = setup();
		const id = "0000000001-old";
		const old = [
			{ type: "session", v: 1, id, createdAt: "2026-01-01T00:00:00.000Z", title: "New chat", at: "2026-01-01T00:00:00.000Z" },
			{ type: "message", message: message("user", "From an older version", 1), at: "2026-01-01T00:00:01.000Z" },
		];
		store.files.set(`sessions/${id}.jsonl`, old.map((r) => JSON.stringify(r) + "\n").join(""));
		const loaded = await new SessionManager(store, { onWarning: (w) => warnings.push(w) }).load(id);
		expect(loaded.messages.map((m) => m.content)).toEqual(["From an older version"]);
		expect(loaded.model).toBeUndefined();
		expect(warnings).toEqual([]);
	});

	it("survives a full rewrite (updateSession) and keeps its time", async () => {
		const { store, manager } = setup();
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "Hi", 1));
		await manager.setModel(id, "mistral");
		const before = (store.files.get(`sessions/${id}.jsonl`) ?? "").split("\n").find((l) => l.includes('"type":"model"'));
		await manager.updateSession(await manager.load(id));
		const after = (store.files.get(`sessions/${id}.jsonl`) ?? "").split("\n").find((l) => l.includes('"type":"model"'));
		expect(after).toBe(before);
		expect((await new SessionManager(store).load(id)).model).toBe("mistral");
	});

	it("refuses an empty name and skips a damaged record with a warning", async () => {
		const { store, manager, warnings } = setup();
		const { id } = await manager.create();
		await expect(manager.setModel(id, "  ")).rejects.toThrow(/cannot be empty/);
		const path = `sessions/${id}.jsonl`;
		store.files.set(path, (store.files.get(path) ?? "") + JSON.stringify({ type: "model", model: 42, at: "2026-01-01T00:00:00.000Z" }) + "\n");
		const loaded = await new SessionManager(store, { onWarning: (w) => warnings.push(w) }).load(id);
		expect(loaded.model).toBeUndefined();
		expect(warnings.join("\n")).toMatch(/bad model record/);
	});
});
