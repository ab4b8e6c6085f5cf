import { describe, expect, it } from "vitest";
import { message, steppingClock, minimalStore } from "./helpers";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import type { FileStore } from "../../src/sessions/store";

function manager(store: FileStore, warnings: string[] = [], recheckMs = 0): SessionManager {
	return new SessionManager(store, { now: steppingClock(), onWarning: (w) => warnings.push(w), recheckMs });
}

const file = (id: string): string => `sessions/${id}.jsonl`;

async function sessionWithTwoMessages(store: MemoryFileStore): Promise<string> {
	const m = manager(store);
	const { id } = await m.create();
	await m.appendMessage(id, message("user", "first", 1));
	await m.appendMessage(id, message("assistant", "second", 2));
	return id;
}


describe("torn and corrupt lines", () => {
	it("ignores a torn last line with a warning and appends on a fresh line", async () => {
		const store = new MemoryFileStore();
		const id = await sessionWithTwoMessages(store);
		const torn = '{"type":"message","message":{"id":"m3","role":"us';
		await store.append(file(id), torn);
		const warnings: string[] = [];
		const m = manager(store, warnings);
		expect((await m.load(id)).messages.map((x) => x.content)).toEqual(["first", "second"]);
		expect(warnings.join("\n")).toMatch(/line 4: torn last line/);
		await m.appendMessage(id, message("user", "third", 4));
		const text = store.files.get(file(id)) ?? "";
		expect(text).toContain(torn + "\n");
		expect(text.endsWith("\n")).toBe(true);
		const reloaded = await manager(store).load(id);
		expect(reloaded.messages.map((x) => x.content)).toEqual(["first", "second", "third"]);
	});

	it("accepts a complete last record that lost only its newline", async () => {
		const store = new MemoryFileStore();
		const id = await sessionWithTwoMessages(store);
		const text = store.files.get(file(id)) ?? "";
		await store.write(file(id), text.slice(0, -1));
		const warnings: string[] = [];
		const m = manager(store, warnings);
		expect((await m.load(id)).messages).toHaveLength(2);
		expect(warnings).toEqual([]);
		await m.appendMessage(id, message("user", "third", 3));
		expect((await manager(store).load(id)).messages.map((x) => x.content)).toEqual(["first", "second", "third"]);
	});

	it("skips a corrupt line in the middle, and updateSession keeps it in the file", async () => {
		const store = new MemoryFileStore();
		const id = await sessionWithTwoMessages(store);
		const lines = (store.files.get(file(id)) ?? "").split("\n");
		lines.splice(2, 0, "garbage {not json", '{"type":"message","message":{"id":5}}');
		await store.write(file(id), lines.join("\n"));
		const warnings: string[] = [];
		const m = manager(store, warnings);
		const session = await m.load(id);
		expect(session.messages.map((x) => x.content)).toEqual(["first", "second"]);
		expect(warnings).toHaveLength(2);
		await m.updateSession(session);
		const rewritten = store.files.get(file(id)) ?? "";
		const corrupt = rewritten
			.split("\n")
			.filter((l) => l !== "")
			.map((l) => JSON.parse(l) as { type: string; raw?: string })
			.filter((r) => r.type === "corrupt")
			.map((r) => r.raw);
		expect(corrupt).toEqual(["garbage {not json", '{"type":"message","message":{"id":5}}']);
		// A second rewrite keeps them too, and they no longer warn.
		const again = manager(store, warnings);
		await again.updateSession(await again.load(id));
		expect(store.files.get(file(id))).toContain("garbage {not json");
		expect(warnings).toHaveLength(2);
	});

	it("loads, lists and searches a damaged session even when the warning listener throws", async () => {
		const store = new MemoryFileStore();
		const id = await sessionWithTwoMessages(store);
		await store.write("index.json", "{broken");
		await store.append(file(id), "garbage {not json\n");
		const throwing = new SessionManager(store, {
			onWarning: () => {
				throw new Error("the panel is gone");
			},
		});
		const errors: unknown[] = [];
		const original = console.error;
		console.error = (...args: unknown[]) => errors.push(args);
		try {
			expect((await throwing.load(id)).messages.map((x) => x.content)).toEqual(["first", "second"]);
			expect((await throwing.list()).map((s) => s.id)).toEqual([id]);
			expect((await throwing.search("second")).map((h) => h.sessionId)).toEqual([id]);
			expect(errors.length).toBeGreaterThan(0);
		} finally {
			console.error = original;
		}
	});

	it("loads a file whose header line is damaged, using the file name as the id", async () => {
		const store = new MemoryFileStore();
		const id = await sessionWithTwoMessages(store);
		const text = store.files.get(file(id)) ?? "";
		await store.write(file(id), "%%%" + text);
		const warnings: string[] = [];
		const session = await manager(store, warnings).load(id);
		expect(session.id).toBe(id);
		expect(session.messages).toHaveLength(2);
		expect(warnings.some((w) => w.includes("header"))).toBe(true);
	});
});

describe("interrupted rewrites", () => {
	it("finishes a rewrite whose old file was already removed", async () => {
		const store = new MemoryFileStore();
		const id = await sessionWithTwoMessages(store);
		await store.rename(file(id), file(id) + ".tmp");
		const warnings: string[] = [];
		const m = manager(store, warnings);
		expect((await m.load(id)).messages).toHaveLength(2);
		expect(store.files.has(file(id))).toBe(true);
		expect(store.files.has(file(id) + ".tmp")).toBe(false);
		expect(warnings.join()).toMatch(/interrupted/);
	});

	it("drops a half-written temporary file when the old file is still there", async () => {
		const store = new MemoryFileStore();
		const id = await sessionWithTwoMessages(store);
		await store.write(file(id) + ".tmp", '{"type":"sess');
		const list = await manager(store).list();
		expect(list.map((s) => s.messageCount)).toEqual([2]);
		expect(store.files.has(file(id) + ".tmp")).toBe(false);
	});

	it("works on a store without stat and rename", async () => {
		const inner = new MemoryFileStore();
		const store = minimalStore(inner);
		const m = manager(store);
		const { id } = await m.create();
		await m.appendMessage(id, message("user", "hello", 1));
		await m.updateSession({ ...(await m.load(id)), title: "Kept" });
		const other = manager(store);
		expect(await other.list()).toMatchObject([{ id, title: "Kept", messageCount: 1 }]);
		const added = await manager(store).create();
		expect((await other.list()).map((s) => s.id).sort()).toEqual([id, added.id].sort());
		await inner.remove(file(id));
		expect((await other.list()).map((s) => s.id)).toEqual([added.id]);
	});
});

describe("the index", () => {
	it("is rebuilt when missing or unreadable, with a warning for unreadable", async () => {
		const store = new MemoryFileStore();
		const id = await sessionWithTwoMessages(store);
		await manager(store).list();
		expect(store.files.has("index.json")).toBe(true);
		await store.remove("index.json");
		expect((await manager(store).list()).map((s) => s.id)).toEqual([id]);
		await store.write("index.json", "{broken");
		const warnings: string[] = [];
		expect((await manager(store, warnings).list()).map((s) => s.messageCount)).toEqual([2]);
		expect(warnings.join()).toMatch(/index/);
		expect(() => JSON.parse(store.files.get("index.json") ?? "") as unknown).not.toThrow();
	});

	it("never hides a session file the index does not know", async () => {
		const store = new MemoryFileStore();
		const id = await sessionWithTwoMessages(store);
		await manager(store).list();
		await store.write("index.json", JSON.stringify({ v: 1, sessions: [], files: {} }));
		expect((await manager(store).list()).map((s) => s.id)).toEqual([id]);
	});

	it("notices sessions changed, added and removed by another device", async () => {
		const store = new MemoryFileStore();
		const here = manager(store);
		const a = await here.create();
		const b = await here.create();
		expect(await here.list()).toHaveLength(2);
		const elsewhere = manager(store);
		await elsewhere.appendMessage(a.id, message("user", "synced message", 1));
		const c = await elsewhere.create();
		await elsewhere.delete(b.id);
		const list = await here.list();
		expect(list.map((s) => s.id).sort()).toEqual([a.id, c.id].sort());
		expect(list.find((s) => s.id === a.id)).toMatchObject({ title: "synced message", messageCount: 1 });
		expect((await here.search("synced")).map((h) => h.sessionId)).toEqual([a.id]);
	});

	it("lists a sync tool's conflict copy as its own session instead of hiding it", async () => {
		const store = new MemoryFileStore();
		const id = await sessionWithTwoMessages(store);
		const copy = `${id} (Conflicted copy 2026-01-02)`;
		await store.write(file(copy), store.files.get(file(id)) ?? "");
		const m = manager(store);
		expect((await m.list()).map((s) => s.id).sort()).toEqual([id, copy].sort());
		expect((await m.load(copy)).messages).toHaveLength(2);
		await expect(m.load("..")).rejects.toThrow(/not found/);
		await expect(m.load("a/b")).rejects.toThrow(/not found/);
	});

	it("checks every file at most once per recheck window, but shows added sessions at once", async () => {
		const store = new MemoryFileStore();
		let now = Date.UTC(2026, 0, 1);
		const here = new SessionManager(store, { now: () => now, recheckMs: 2000 });
		const { id } = await here.create();
		expect(await here.list()).toMatchObject([{ messageCount: 0 }]);
		const elsewhere = manager(store);
		await elsewhere.appendMessage(id, message("user", "synced", 1));
		const added = await elsewhere.create();
		now += 1000;
		const soon = await here.list();
		expect(soon.map((s) => s.id).sort()).toEqual([id, added.id].sort());
		expect(soon.find((s) => s.id === id)?.messageCount).toBe(0);
		expect((await here.load(id)).messages).toHaveLength(1); // load() always checks its file
		await elsewhere.appendMessage(id, message("assistant", "more", 2));
		now += 2000;
		expect((await here.list()).find((s) => s.id === id)?.messageCount).toBe(2);
	});

	it("reloads a cached session changed elsewhere before appending to it", async () => {
		const store = new MemoryFileStore();
		const here = manager(store);
		const { id } = await here.create();
		await here.appendMessage(id, message("user", "one", 1));
		await manager(store).appendMessage(id, message("assistant", "two", 2));
		await here.appendMessage(id, message("user", "three", 3));
		expect((await here.load(id)).messages.map((x) => x.content)).toEqual(["one", "two", "three"]);
		expect((await manager(store).load(id)).messages.map((x) => x.content)).toEqual(["one", "two", "three"]);
	});

	it("does not recreate a session deleted elsewhere", async () => {
		const store = new MemoryFileStore();
		const here = manager(store);
		const { id } = await here.create();
		await manager(store).delete(id);
		await expect(here.appendMessage(id, message("user", "x", 1))).rejects.toThrow(/not found/);
		expect(store.files.has(file(id))).toBe(false);
	});

	it("reads the file again after a failed append", async () => {
		const inner = new MemoryFileStore();
		let failNext = false;
		const store: FileStore = {
			...minimalStore(inner),
			append: async (p, d) => {
				if (failNext) {
					failNext = false;
					await inner.append(p, d.slice(0, 10)); // a partial write, then the error
					throw new Error("disk full");
				}
				await inner.append(p, d);
			},
		};
		const m = manager(store);
		const { id } = await m.create();
		failNext = true;
		await expect(m.appendMessage(id, message("user", "lost", 1))).rejects.toThrow(/disk full/);
		await m.appendMessage(id, message("user", "kept", 2));
		expect((await manager(store).load(id)).messages.map((x) => x.content)).toEqual(["kept"]);
	});
});

describe("automatic compaction", () => {
	it("rewrites a file that is mostly replaced records, keeping messages and unreadable lines", async () => {
		const store = new MemoryFileStore();
		const warnings: string[] = [];
		const m = manager(store, warnings);
		const { id } = await m.create();
		await m.appendMessage(id, message("user", "question", 1));
		await m.appendMessage(id, message("assistant", "", 2));
		await store.append(file(id), "not json\n");
		const fresh = manager(store, warnings);
		for (let i = 0; i < 100; i++) await fresh.updateMessage(id, message("assistant", `draft ${i}`, 2));
		for (let i = 0; i < 10; i++) await fresh.setSummary(id, message("system", `summary ${i}`, 3));
		const lines = (store.files.get(file(id)) ?? "").split("\n").filter((l) => l !== "");
		expect(lines.length).toBeLessThan(60);
		expect(lines.some((l) => l.includes('"raw":"not json"'))).toBe(true);
		const loaded = await manager(store).load(id);
		expect(loaded.messages.map((x) => x.content)).toEqual(["summary 9", "question", "draft 99"]);
		expect(loaded.title).toBe("question");
	});
});

