import fc from "fast-check";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/core/types";
import { Interleaver } from "./interleavingStore";
import { steppingClock, minimalStore } from "./helpers";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { NodeFileStore } from "../../src/sessions/nodeStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import type { FileStore } from "../../src/sessions/store";

// Two devices writing one chat: two SessionManagers on one folder, as Obsidian Sync, iCloud or
// Syncthing make them. No write may erase a line its writer has not read.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0)) await cleanup();
});


const stores: [string, () => Promise<FileStore>][] = [
	["MemoryFileStore", () => Promise.resolve(new MemoryFileStore())],
	[
		"NodeFileStore",
		async () => {
			const dir = await mkdtemp(join(tmpdir(), "discover-race-"));
			cleanups.push(() => rm(dir, { recursive: true, force: true }));
			return new NodeFileStore(dir);
		},
	],
	["a store without stat and rename", () => Promise.resolve(minimalStore(new MemoryFileStore()))],
];

const base = Date.UTC(2026, 0, 1);
function said(who: string, i: number, offsetMs: number): ChatMessage {
	return { id: `${who}${i}`, role: "user", content: `${who} says ${i}`, createdAt: new Date(base + i * 1000 + offsetMs).toISOString() };
}

describe.each(stores)("two devices on %s", (_name, makeStore) => {
	it("keeps both devices' messages, in time order, when both append at once and one then compacts", async () => {
		const store = await makeStore();
		const quiet = { onWarning: () => undefined, recheckMs: 0 };
		const a = new SessionManager(store, quiet);
		const b = new SessionManager(store, quiet);
		const { id } = await a.create();
		await b.load(id);
		await Promise.all([
			(async () => {
				for (let i = 0; i < 20; i++) await a.appendMessage(id, said("a", i, 0));
			})(),
			(async () => {
				for (let i = 0; i < 20; i++) await b.appendMessage(id, said("b", i, 500));
			})(),
		]);
		const expected = Array.from({ length: 20 }, (_, i) => [`a says ${i}`, `b says ${i}`]).flat();
		const contents = async (m: SessionManager): Promise<string[]> => (await m.load(id)).messages.map((x) => x.content);
		expect(await contents(new SessionManager(store, quiet))).toEqual(expected);
		await a.updateSession(await a.load(id));
		expect(await contents(new SessionManager(store, quiet))).toEqual(expected);
		// Stores without stat cannot notice another writer until a rewrite reads the file, so only
		// the ones with stat promise both views at once.
		if (store.stat !== undefined) {
			expect(await contents(a)).toEqual(expected);
			expect(await contents(b)).toEqual(expected);
		}
		await b.appendMessage(id, said("b", 20, 500));
		await b.updateSession(await b.load(id));
		expect(await contents(new SessionManager(store, quiet))).toEqual([...expected, "b says 20"]);
	});
});

describe("a rewrite racing another writer", () => {
	/** Runs `op` once, right before the first store call named `method` by writer `owner`. */
	function injectOnce(owner: number, method: string, op: () => Promise<void>): Interleaver {
		let done = false;
		return new Interleaver((who, called) => {
			if (done || who !== owner || called !== method) return undefined;
			done = true;
			return op;
		});
	}

	it("merges a message appended between its temporary write and the rename", async () => {
		const inner = new MemoryFileStore();
		const clock = steppingClock();
		let other: SessionManager | undefined;
		let id = "";
		const interleaver = injectOnce(0, "exists", async () => {
			await other?.appendMessage(id, said("b", 1, 500));
		});
		const writing = new SessionManager(interleaver.storeFor(inner, 0), { now: clock, recheckMs: 0 });
		other = new SessionManager(interleaver.storeFor(inner, 1), { now: clock, recheckMs: 0 });
		id = (await new SessionManager(inner, { now: clock }).create()).id;
		await writing.appendMessage(id, said("a", 1, 0));
		await other.load(id);
		const session = await writing.load(id);
		// The injection fires at the rewrite's check: after the temporary file is written.
		interleaver.calls.length = 0;
		await writing.updateSession({ ...session, title: "Renamed" });
		expect(interleaver.calls.slice(0, interleaver.calls.indexOf("exists"))).toContain("write");
		const fresh = await new SessionManager(inner).load(id);
		expect(fresh.title).toBe("Renamed");
		expect(fresh.messages.map((m) => m.content)).toEqual(["a says 1", "b says 1"]);
		expect((await writing.load(id)).messages.map((m) => m.content)).toEqual(["a says 1", "b says 1"]);
	});

	it("writes again a message another writer's rename erased in the instant after its check", async () => {
		const inner = new MemoryFileStore();
		const clock = steppingClock();
		let other: SessionManager | undefined;
		let id = "";
		const interleaver = injectOnce(0, "rename", async () => {
			await other?.appendMessage(id, said("b", 1, 500));
		});
		const warnings: string[] = [];
		const writing = new SessionManager(interleaver.storeFor(inner, 0), { now: clock, recheckMs: 0 });
		other = new SessionManager(interleaver.storeFor(inner, 1), { now: clock, recheckMs: 0, onWarning: (w) => warnings.push(w) });
		id = (await new SessionManager(inner, { now: clock }).create()).id;
		await writing.appendMessage(id, said("a", 1, 0));
		await other.load(id);
		await writing.updateSession(await writing.load(id));
		// No store offers compare-and-swap: the rename erased b's line. b notices at its next read.
		expect((await other.load(id)).messages.map((m) => m.content)).toEqual(["a says 1", "b says 1"]);
		expect(warnings.join("\n")).toMatch(/written again/);
		expect((await new SessionManager(inner).load(id)).messages.map((m) => m.content)).toEqual(["a says 1", "b says 1"]);
	});
});

type Op = { who: number; kind: "append" } | { who: number; kind: "update"; pick: number } | { who: number; kind: "summary" } | { who: number; kind: "rewrite" } | { who: number; kind: "load" };

describe("N writers on one file, interleaved inside each other's writes", () => {
	it("every record any of them wrote is on disk and in a fresh load, in time order", async () => {
		const writers = 3;
		const who = fc.nat({ max: writers - 1 });
		const op: fc.Arbitrary<Op> = fc.oneof(
			{ weight: 4, arbitrary: fc.record({ who, kind: fc.constant("append" as const) }) },
			{ weight: 2, arbitrary: fc.record({ who, kind: fc.constant("update" as const), pick: fc.nat() }) },
			{ weight: 1, arbitrary: fc.record({ who, kind: fc.constant("summary" as const) }) },
			{ weight: 2, arbitrary: fc.record({ who, kind: fc.constant("rewrite" as const) }) },
			{ weight: 1, arbitrary: fc.record({ who, kind: fc.constant("load" as const) }) },
		);
		await fc.assert(
			fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), fc.infiniteStream(fc.nat({ max: 3 })), async (ops, dice) => {
				const inner = new MemoryFileStore();
				const clock = steppingClock();
				let next = 0;
				// Before a store call, one time in four, the next operation runs first if it is another writer's.
				const interleaver = new Interleaver((owner) => {
					const upcoming = ops[next];
					if (upcoming === undefined || upcoming.who === owner || dice.next().value !== 0) return undefined;
					next++;
					return () => perform(upcoming);
				});
				const quiet = { now: clock, recheckMs: 0, onWarning: () => undefined };
				const managers = Array.from({ length: writers }, (_, i) => new SessionManager(interleaver.storeFor(inner, i), quiet));
				const id = (await new SessionManager(inner, quiet).create()).id;
				const versions = new Map<string, Set<string>>();
				// Messages whose append has finished: an update follows the message it updates.
				const written: ChatMessage[] = [];
				const summaries = new Set<string>();
				let n = 0;
				async function perform(o: Op): Promise<void> {
					const manager = managers[o.who];
					if (manager === undefined) return;
					const at = new Date(clock()).toISOString();
					const target = o.kind === "update" ? written[o.pick % Math.max(1, written.length)] : undefined;
					if (o.kind === "append") {
						const message: ChatMessage = { id: `w${o.who}-${n}`, role: n % 2 ? "assistant" : "user", content: `text ${n++}`, createdAt: at };
						versions.set(message.id, new Set([message.content]));
						await manager.appendMessage(id, message);
						written.push(message);
					} else if (o.kind === "update" && target !== undefined) {
						const content = `edit ${n++}`;
						versions.get(target.id)?.add(content);
						await manager.updateMessage(id, { ...target, content });
					} else if (o.kind === "summary") {
						const content = `summary ${n++}`;
						summaries.add(content);
						await manager.setSummary(id, { id: `s${n}`, role: "system", content, createdAt: at });
					} else if (o.kind === "rewrite") {
						// A rewrite that another writer interrupts on every one of its 8 tries gives up,
						// leaving the file as it is (nothing lost, a message to try again): the checks
						// below still hold. Any other failure fails the property.
						try {
							await manager.updateSession(await manager.load(id));
						} catch (err) {
							if (!/kept changing while it was being rewritten/.test(String(err))) throw err;
						}
					} else await manager.load(id);
				}
				while (next < ops.length) {
					const o = ops[next++];
					if (o !== undefined) await perform(o);
				}
				// Each writer reads once more (a writer whose line was erased writes it again), then
				// once more so every view has seen those.
				for (let round = 0; round < 2; round++) for (const m of managers) await m.load(id);
				const fresh = await new SessionManager(inner, quiet).load(id);
				const transcript = fresh.messages.filter((m) => m.role !== "system");
				expect(transcript.map((m) => m.id).sort()).toEqual([...versions.keys()].sort());
				for (const m of transcript) expect(versions.get(m.id)).toContain(m.content);
				const times = transcript.map((m) => m.createdAt);
				expect(times).toEqual([...times].sort());
				const summary = fresh.messages.find((m) => m.role === "system");
				if (summaries.size > 0) expect(summaries).toContain(summary?.content);
				// Views: a rewrite and an append of the same total size, both inside one of a writer's
				// appends, hide from its size check until the next change; one more message is that change.
				const last: ChatMessage = { id: "last", role: "user", content: "last", createdAt: new Date(clock()).toISOString() };
				await new SessionManager(inner, quiet).appendMessage(id, last);
				for (const m of managers) expect((await m.load(id)).messages).toEqual([...fresh.messages, last]);
			}),
			{ numRuns: 200 },
		);
	});
});
