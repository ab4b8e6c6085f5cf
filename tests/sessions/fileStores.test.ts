import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InMemoryAdapter } from "../obsidian/adapter";
import { afterEach, describe, expect, it } from "vitest";
import { message } from "./helpers";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { NodeFileStore } from "../../src/sessions/nodeStore";
import { ObsidianFileStore } from "../../src/wiring/obsidianStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import type { FileStore } from "../../src/sessions/store";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function tempDir(): Promise<string> {
	const dir = await mkdtemp(join(tmpdir(), "discover-store-"));
	cleanups.push(() => rm(dir, { recursive: true, force: true }));
	return dir;
}

const stores: [string, () => Promise<FileStore>][] = [
	["MemoryFileStore", () => Promise.resolve(new MemoryFileStore())],
	["NodeFileStore", async () => new NodeFileStore(await tempDir())],
	["NodeFileStore with fsync", async () => new NodeFileStore(await tempDir(), { fsync: true })],
	["ObsidianFileStore", () => Promise.resolve(new ObsidianFileStore(new InMemoryAdapter(), ".discover/chats"))],
];

describe.each(stores)("%s", (_name, makeStore) => {
	it("writes, appends, reads, lists, stats, renames and removes", async () => {
		const store = await makeStore();
		expect(await store.list("sessions")).toEqual([]);
		expect(await store.exists("sessions/a.jsonl")).toBe(false);
		await store.mkdir("sessions");
		await store.write("sessions/a.jsonl", "one\n");
		await store.append("sessions/a.jsonl", "two\n");
		await store.append("sessions/b.jsonl", "new\n");
		expect(await store.read("sessions/a.jsonl")).toBe("one\ntwo\n");
		expect(await store.read("sessions/b.jsonl")).toBe("new\n");
		expect(await store.list("sessions")).toEqual(["a.jsonl", "b.jsonl"]);
		const before = await store.stat?.("sessions/a.jsonl");
		expect(before?.size).toBe(8);
		await store.append("sessions/a.jsonl", "3\n");
		expect((await store.stat?.("sessions/a.jsonl"))?.size).toBe(10);
		expect(await store.stat?.("sessions/none.jsonl")).toBeNull();
		await store.rename?.("sessions/b.jsonl", "sessions/a.jsonl");
		expect(await store.read("sessions/a.jsonl")).toBe("new\n");
		expect(await store.list("sessions")).toEqual(["a.jsonl"]);
		await store.remove("sessions/a.jsonl");
		await store.remove("sessions/a.jsonl"); // removing a missing file is not an error
		expect(await store.exists("sessions/a.jsonl")).toBe(false);
	});

	it("writes into folders that do not exist yet", async () => {
		const store = await makeStore();
		await store.write("deep/er/file.txt", "x");
		expect(await store.read("deep/er/file.txt")).toBe("x");
	});

	it("runs a SessionManager end to end", async () => {
		const store = await makeStore();
		const manager = new SessionManager(store);
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "Über große Dinge 🌍", 1));
		await manager.appendMessage(id, message("assistant", "Ja.", 2));
		await manager.updateSession(await manager.load(id));
		const reloaded = new SessionManager(store);
		expect((await reloaded.load(id)).messages.map((m) => m.content)).toEqual(["Über große Dinge 🌍", "Ja."]);
		expect((await reloaded.list()).map((s) => s.title)).toEqual(["Über große Dinge 🌍"]);
		expect(await store.list("sessions")).toEqual([`${id}.jsonl`]);
	});

	it("survives a torn last line and an interrupted rewrite on this store", async () => {
		const store = await makeStore();
		const warnings: string[] = [];
		const manager = new SessionManager(store, { onWarning: (w) => warnings.push(w) });
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "kept", 1));
		await store.append(`sessions/${id}.jsonl`, '{"type":"message","mess');
		const next = new SessionManager(store, { onWarning: (w) => warnings.push(w) });
		await next.appendMessage(id, message("assistant", "after the tear", 2));
		expect((await new SessionManager(store, { onWarning: () => undefined }).load(id)).messages.map((m) => m.content)).toEqual(["kept", "after the tear"]);
		expect(warnings).toHaveLength(1);
		const text = await store.read(`sessions/${id}.jsonl`);
		await store.remove(`sessions/${id}.jsonl`);
		await store.write(`sessions/${id}.jsonl.tmp`, text);
		expect((await new SessionManager(store, { onWarning: () => undefined }).list()).map((s) => s.messageCount)).toEqual([2]);
		expect(await store.list("sessions")).toEqual([`${id}.jsonl`]);
	});
});

describe("NodeFileStore paths", () => {
	it("refuses paths that leave the root", async () => {
		const store = new NodeFileStore(await tempDir());
		expect(() => store.resolve("../outside.txt")).toThrow(/escapes/);
		expect(() => store.resolve("a/../../outside.txt")).toThrow(/escapes/);
		expect(() => store.resolve("/etc/passwd")).toThrow(/relative/);
		expect(() => store.resolve("C:/x")).toThrow(/relative/);
		await expect(store.read("../x")).rejects.toThrow(/escapes/);
		await expect(store.write("../x", "x")).rejects.toThrow(/escapes/);
	});

	it("keeps inner '..' that stays inside and reads files written by others", async () => {
		const dir = await tempDir();
		await writeFile(join(dir, "hello.txt"), "hi");
		const store = new NodeFileStore(dir);
		expect(await store.read("sub/../hello.txt")).toBe("hi");
		expect(await store.read("hello.txt")).toBe("hi");
	});
});

describe("ObsidianFileStore root", () => {
	it("stores under the normalized root folder and follows setRoot", async () => {
		const adapter = new InMemoryAdapter();
		const store = new ObsidianFileStore(adapter, "//Chats\\Discover/");
		await store.write("sessions/a.jsonl", "x\n");
		expect(await adapter.read("Chats/Discover/sessions/a.jsonl")).toBe("x\n");
		store.setRoot("Other");
		expect(await store.exists("sessions/a.jsonl")).toBe(false);
		await store.append("sessions/a.jsonl", "y\n");
		expect(await adapter.read("Other/sessions/a.jsonl")).toBe("y\n");
		store.setRoot("");
		expect(store.resolve("index.json")).toBe("index.json");
	});

	it("a SessionManager follows the folder after setRoot and clearCache", async () => {
		const store = new ObsidianFileStore(new InMemoryAdapter(), "First");
		const manager = new SessionManager(store);
		const first = await manager.create();
		expect((await manager.list()).map((s) => s.id)).toEqual([first.id]);
		store.setRoot("Second");
		await manager.clearCache();
		expect(await manager.list()).toEqual([]);
		const second = await manager.create();
		expect((await manager.list()).map((s) => s.id)).toEqual([second.id]);
		await expect(manager.load(first.id)).rejects.toThrow(/not found/);
		store.setRoot("First");
		await manager.clearCache();
		expect((await manager.list()).map((s) => s.id)).toEqual([first.id]);
	});

	it("refuses paths that leave the root", () => {
		const store = new ObsidianFileStore(new InMemoryAdapter(), "Chats");
		expect(() => store.resolve("../secret.md")).toThrow(/escapes/);
		expect(() => store.resolve("sessions/../../x")).toThrow(/escapes/);
	});
});
