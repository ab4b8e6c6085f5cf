import { describe, expect, it } from "vitest";
import { message, steppingClock } from "./helpers";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";

/** Counts whole-file reads, the cost a first search pays. */
class CountingStore extends MemoryFileStore {
	reads = 0;
	override read(path: string): Promise<string> {
		if (path.endsWith(".jsonl")) this.reads++;
		return super.read(path);
	}
}

async function saved(count: number): Promise<{ store: CountingStore; ids: string[] }> {
	const store = new CountingStore();
	const writer = new SessionManager(store, { now: steppingClock() });
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		const id = (await writer.create()).id;
		await writer.appendMessage(id, message("user", `Question ${i} about ${i % 7 === 0 ? "quasars" : "tulips"}`, i * 2 + 1));
		ids.push(id);
	}
	return { store, ids };
}

describe("warmSearch", () => {
	it("reads every session once, so the next search reads none and finds the same hits", async () => {
		const { store } = await saved(70);
		const cold = await new SessionManager(store).search("quasars");

		const manager = new SessionManager(store);
		await manager.warmSearch();
		store.reads = 0;
		const warm = await manager.search("quasars");
		expect(store.reads).toBe(0);
		expect(warm).toEqual(cold);
		expect(warm).toHaveLength(10);
	});

	it("lets list() through between its batches and tolerates an empty store", async () => {
		const { store, ids } = await saved(70);
		const manager = new SessionManager(store);
		const warming = manager.warmSearch();
		const listed = await manager.list();
		expect(listed).toHaveLength(ids.length);
		await warming;
		await new SessionManager(new MemoryFileStore()).warmSearch();
	});
});
