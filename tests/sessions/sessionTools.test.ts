// The chat's tools switch saved with it: an additive `tools` record beside the model and agent
// records. It comes back on load (the latest flip winning), survives rewrites with its time, merges
// by time like the others, and a file without one (every file written before it) loads with tools
// on, whatever else it holds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { SessionState } from "../../src/sessions/sessionState";
import { encodeRecord, parseSessionFile, type SessionRecord } from "../../src/sessions/records";
import { message, steppingClock } from "./helpers";

function setup(): { store: MemoryFileStore; manager: SessionManager; warnings: string[] } {
	const store = new MemoryFileStore();
	const warnings: string[] = [];
	const manager = new SessionManager(store, { now: steppingClock(), onWarning: (w) => warnings.push(w) });
	return { store, manager, warnings };
}

const fileOf = (store: MemoryFileStore, id: string): string => store.files.get(`sessions/${id}.jsonl`) ?? "";

describe("the tools switch saved with a chat", () => {
	it("round-trips: off comes back after a restart, the latest flip winning", async () => {
		const { store, manager } = setup();
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "Hello", 1));
		await manager.setTools(id, false);
		expect((await new SessionManager(store).load(id)).tools).toBe(false);
		await manager.setTools(id, true);
		await manager.setTools(id, false);
		const loaded = await new SessionManager(store).load(id);
		expect(loaded.tools).toBe(false);
		expect(loaded.messages.map((m) => m.content)).toEqual(["Hello"]);
		expect(fileOf(store, id)).toMatch(/\{"type":"tools","on":false,"at":"[^"]+"\}\n$/);
	});

	it("is absent on a chat that never flipped it (tools on)", async () => {
		const { manager } = setup();
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "Hi", 1));
		expect("tools" in (await manager.load(id))).toBe(false);
	});

	it("survives a full rewrite and keeps its time; updateSession can flip it", async () => {
		const { store, manager } = setup();
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "Hi", 1));
		await manager.setTools(id, false);
		const line = () => fileOf(store, id).split("\n").find((l) => l.includes('"type":"tools"'));
		const before = line();
		await manager.updateSession(await manager.load(id));
		expect(line()).toBe(before);
		expect((await new SessionManager(store).load(id)).tools).toBe(false);
		await manager.updateSession({ ...(await manager.load(id)), tools: true });
		expect((await new SessionManager(store).load(id)).tools).toBe(true);
	});

	it("merges by time: an older flip from another device does not win over a newer one", () => {
		const header: SessionRecord = { type: "session", v: 1, id: "s", createdAt: "2026-01-01T00:00:00.000Z", title: "New chat" };
		const state = SessionState.fromRecords("s", [header, { type: "tools", on: false, at: "2026-01-01T00:00:05.000Z" }], "2026-01-01T00:00:00.000Z");
		expect(state.isNews({ type: "tools", on: true, at: "2026-01-01T00:00:03.000Z" })).toBe(false);
		expect(state.isNews({ type: "tools", on: true, at: "2026-01-01T00:00:09.000Z" })).toBe(true);
		state.merge({ type: "tools", on: true, at: "2026-01-01T00:00:09.000Z" });
		expect(state.toSession().tools).toBe(true);
	});

	it("refuses a switch that is not a boolean; a damaged record is kept as an unreadable line with a warning", async () => {
		const { store, manager, warnings } = setup();
		const { id } = await manager.create();
		await manager.appendMessage(id, message("user", "Keep me", 1));
		await expect(manager.setTools(id, "off" as unknown as boolean)).rejects.toThrow(/on \(true\) or off \(false\)/);
		const path = `sessions/${id}.jsonl`;
		store.files.set(path, fileOf(store, id) + JSON.stringify({ type: "tools", on: "no", at: "2026-01-01T00:00:00.000Z" }) + "\n");
		const loaded = await new SessionManager(store, { onWarning: (w) => warnings.push(w) }).load(id);
		expect(loaded.tools).toBeUndefined();
		expect(loaded.messages.map((m) => m.content)).toEqual(["Keep me"]);
		expect(warnings.join("\n")).toMatch(/bad tools record/);
		// The damaged line is kept through a rewrite.
		await manager.updateSession(loaded);
		expect(fileOf(store, id)).toContain('\\"on\\":\\"no\\"');
	});
});

// Records as files written before the switch was saved hold them: everything but `tools`.
const oldRecord: fc.Arbitrary<SessionRecord> = fc.oneof(
	fc.record({ type: fc.constant("message" as const), message: fc.record({ id: fc.constantFrom("a", "b", "c"), role: fc.constantFrom("user" as const, "assistant" as const), content: fc.string({ maxLength: 20 }), createdAt: fc.constantFrom("2026-01-01T00:00:01.000Z", "2026-01-01T00:00:02.000Z") }), at: fc.constant("2026-01-01T00:00:03.000Z") }),
	fc.record({ type: fc.constant("title" as const), title: fc.string({ minLength: 1, maxLength: 10 }), at: fc.constant("2026-01-01T00:00:04.000Z") }),
	fc.record({ type: fc.constant("model" as const), model: fc.constantFrom("llama3.2", "qwen3:8b"), at: fc.constant("2026-01-01T00:00:05.000Z") }),
	fc.record({ type: fc.constant("agent" as const), agent: fc.constantFrom("Discover/Agents/Default.md"), at: fc.constant("2026-01-01T00:00:06.000Z") }),
	fc.record({ type: fc.constant("switch" as const), leaf: fc.constantFrom("a", "b", null), at: fc.constant("2026-01-01T00:00:07.000Z") }),
	fc.record({ type: fc.constant("corrupt" as const), raw: fc.string({ maxLength: 20 }) }),
);

describe("files written before the tools switch was saved", () => {
	it("load with tools on (no `tools` on the session), before and after a rewrite, whatever else they hold", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(oldRecord, { maxLength: 12 }), async (records) => {
				const store = new MemoryFileStore();
				const id = "20260101-000000-old";
				const header: SessionRecord = { type: "session", v: 1, id, createdAt: "2026-01-01T00:00:00.000Z", title: "New chat" };
				const text = [header, ...records].map(encodeRecord).join("");
				expect(parseSessionFile(text).records.some((r) => r.type === "tools")).toBe(false);
				await store.write(`sessions/${id}.jsonl`, text);
				const manager = new SessionManager(store, { onWarning: () => undefined });
				const loaded = await manager.load(id);
				expect(loaded.tools).toBeUndefined();
				await manager.updateSession(loaded);
				expect(fileOf(store, id)).not.toContain('"type":"tools"');
				expect((await new SessionManager(store, { onWarning: () => undefined }).load(id)).tools).toBeUndefined();
			}),
			{ numRuns: 60 },
		);
	});
});
