import { appendFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { message, steppingClock } from "./helpers";
import { InMemoryAdapter } from "../obsidian/adapter";
import { NodeFileStore } from "../../src/sessions/nodeStore";
import { ObsidianFileStore } from "../../src/wiring/obsidianStore";
import { SessionManager } from "../../src/sessions/SessionManager";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A line damaged by another tool: a lone Latin-1 byte, a cut multibyte character, 0xFF 0xFE. */
const damaged = Buffer.concat([
	Buffer.from('{"type":"message","message":{"id":"d1","role":"user","content":"caf'),
	Buffer.from([0xe9]),
	Buffer.from(" na"),
	Buffer.from([0xe4, 0xb8]),
	Buffer.from(" "),
	Buffer.from([0xff, 0xfe]),
	Buffer.from('","createdAt":"2026-01-01T00:00:00.000Z"}}'),
]);

function count(haystack: Buffer, needle: Buffer): number {
	let n = 0;
	for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) n++;
	return n;
}

describe("a damaged line that is not UTF-8", () => {
	it("is kept byte for byte when the file is compacted and rewritten", async () => {
		const root = await mkdtemp(join(tmpdir(), "discover-bytes-"));
		cleanups.push(() => rm(root, { recursive: true, force: true }));
		const manager = new SessionManager(new NodeFileStore(root), { now: steppingClock(), onWarning: () => undefined });
		const { id } = await manager.create();
		const path = join(root, "sessions", `${id}.jsonl`);
		await manager.appendMessage(id, message("user", "question", 1));
		await manager.appendMessage(id, message("assistant", "", 2));
		await appendFile(path, Buffer.concat([damaged, Buffer.from("\n")]));
		const before = await readFile(path);
		expect(count(before, damaged)).toBe(1);

		// Enough replaced answers to trigger automatic compaction, on a manager that reads the file afresh.
		const warnings: string[] = [];
		const writer = new SessionManager(new NodeFileStore(root), { now: steppingClock(Date.UTC(2026, 1, 1)), onWarning: (w) => warnings.push(w) });
		for (let i = 0; i < 100; i++) await writer.updateMessage(id, message("assistant", `draft ${i}`, 2));
		const compacted = await readFile(path);
		expect(compacted.toString("utf8").split("\n").filter((l) => l.includes('"type":"update"')).length).toBeLessThan(60);
		expect(count(compacted, damaged)).toBe(1);
		expect(warnings.join("\n")).toMatch(/not valid UTF-8/);

		// An explicit rewrite keeps it too, and the file still loads.
		await writer.updateSession(await writer.load(id));
		const rewritten = await readFile(path);
		expect(count(rewritten, damaged)).toBe(1);
		const fresh = await new SessionManager(new NodeFileStore(root), { onWarning: () => undefined }).load(id);
		expect(fresh.messages.map((m) => m.content)).toEqual(["question", "draft 99"]);
	});
});

describe("a damaged line that is not UTF-8, in the vault (Obsidian's adapter)", () => {
	it("is kept byte for byte through a compaction and a rewrite", async () => {
		const adapter = new InMemoryAdapter();
		const store = new ObsidianFileStore(adapter, "Discover/Chats");
		const manager = new SessionManager(store, { now: steppingClock(), onWarning: () => undefined });
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "question", 1));
		await manager.appendMessage(id, message("assistant", "", 2));
		const path = `Discover/Chats/sessions/${id}.jsonl`;
		const withDamage = Buffer.concat([Buffer.from(await adapter.readBinary(path)), damaged, Buffer.from("\n")]);
		await adapter.writeBinary(path, withDamage.buffer.slice(withDamage.byteOffset, withDamage.byteOffset + withDamage.length));
		expect((await adapter.stat(path))?.size).toBe(withDamage.length);

		const writer = new SessionManager(new ObsidianFileStore(adapter, "Discover/Chats"), { now: steppingClock(Date.UTC(2026, 1, 1)), onWarning: () => undefined });
		for (let i = 0; i < 100; i++) await writer.updateMessage(id, message("assistant", `draft ${i}`, 2));
		await writer.updateSession(await writer.load(id));
		const rewritten = Buffer.from(await adapter.readBinary(path));
		expect(count(rewritten, damaged)).toBe(1);
		const fresh = await new SessionManager(new ObsidianFileStore(adapter, "Discover/Chats"), { onWarning: () => undefined }).load(id);
		expect(fresh.messages.map((m) => m.content)).toEqual(["question", "draft 99"]);
	});
});
