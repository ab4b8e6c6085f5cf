import { mkdtemp, readdir, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { message } from "./helpers";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { NodeFileStore } from "../../src/sessions/nodeStore";
import { SessionManager, SessionNotFoundError } from "../../src/sessions/SessionManager";
import { MAX_ID_BYTES } from "../../src/sessions/sessionIds";
import type { FileStore } from "../../src/sessions/store";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function tempDir(): Promise<string> {
	const dir = await mkdtemp(join(tmpdir(), "discover-ids-"));
	cleanups.push(() => rm(dir, { recursive: true, force: true }));
	return dir;
}

const stores: [string, () => Promise<{ store: FileStore; root: string }>][] = [
	["MemoryFileStore", () => Promise.resolve({ store: new MemoryFileStore(), root: "sessions/" })],
	[
		"NodeFileStore",
		async () => {
			const root = await tempDir();
			return { store: new NodeFileStore(root), root };
		},
	],
];

const longIds: [string, string][] = [
	["a 1 MB id", "x".repeat(1 << 20)],
	["200 multibyte characters", "中".repeat(200)],
	["200 two-byte characters", "é".repeat(200)],
	["100 emoji", "😀".repeat(100)],
];

describe.each(stores)("session ids no file system accepts, on %s", (_name, makeStore) => {
	it.each(longIds)("refuses %s up front with a short message and no path", async (_what, id) => {
		const { store, root } = await makeStore();
		const manager = new SessionManager(store);
		const calls: [string, () => Promise<unknown>][] = [
			["load", () => manager.load(id)],
			["appendMessage", () => manager.appendMessage(id, message("user", "kept?", 1))],
			["updateMessage", () => manager.updateMessage(id, message("user", "kept?", 1))],
			["rename", () => manager.rename(id, "title")],
			["updateSession", () => manager.updateSession({ id, title: "t", createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z", messages: [] })],
			["delete", () => manager.delete(id)],
			["exportMarkdown", () => manager.exportMarkdown(id)],
		];
		for (const [name, call] of calls) {
			const error = await call().then(
				() => undefined,
				(err: unknown) => err,
			);
			expect(error, name).toBeInstanceOf(SessionNotFoundError);
			const text = (error as Error).message;
			expect(text.length, name).toBeLessThan(200);
			expect(text, name).toMatch(/too long for a file name/);
			expect(text, name).not.toContain(root);
			expect(text, name).not.toMatch(/ENAMETOOLONG/);
			expect((error as SessionNotFoundError).sessionId, name).toBe(id);
		}
		expect(await manager.list()).toEqual([]);
	});
});

describe("the longest id a file system accepts", () => {
	it("loads, appends to and rewrites a session whose id is just under the limit, on disk", async () => {
		const root = await tempDir();
		const id = "中".repeat(Math.floor(MAX_ID_BYTES / 3));
		await mkdir(join(root, "sessions"));
		const header = { type: "session", v: 1, id, createdAt: "2026-01-01T00:00:00.000Z", title: "New chat" };
		await writeFile(join(root, "sessions", `${id}.jsonl`), JSON.stringify(header) + "\n");
		const manager = new SessionManager(new NodeFileStore(root));
		await manager.appendMessage(id, message("user", "hello", 1));
		await manager.updateSession({ ...(await manager.load(id)), title: "Renamed" });
		const fresh = await new SessionManager(new NodeFileStore(root)).load(id);
		expect(fresh).toMatchObject({ title: "Renamed", messages: [{ content: "hello" }] });
		expect(await readdir(join(root, "sessions"))).toEqual([`${id}.jsonl`]);
	});
});
