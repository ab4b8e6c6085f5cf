import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/core/types";
import { steppingClock } from "./helpers";
import { newId } from "../../src/sessions/ids";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";

type Op =
	| { kind: "create" }
	| { kind: "append"; s: number; role: "user" | "assistant"; content: string }
	| { kind: "summary"; s: number; content: string }
	| { kind: "update"; s: number; m: number; content: string; cancelled: boolean }
	| { kind: "rename"; s: number; title: string }
	| { kind: "rewrite"; s: number }
	| { kind: "restart" };

const text = fc.oneof(fc.string({ unit: "binary", maxLength: 40 }), fc.constantFrom("", "\n", "line one\nline two", ' "quoted" \\ ', "😀 über"));

const op: fc.Arbitrary<Op> = fc.oneof(
	fc.constant<Op>({ kind: "create" }),
	fc.record({ kind: fc.constant("append" as const), s: fc.nat(), role: fc.constantFrom("user" as const, "assistant" as const), content: text }),
	fc.record({ kind: fc.constant("append" as const), s: fc.nat(), role: fc.constantFrom("user" as const, "assistant" as const), content: text }),
	fc.record({ kind: fc.constant("summary" as const), s: fc.nat(), content: text }),
	fc.record({ kind: fc.constant("update" as const), s: fc.nat(), m: fc.nat(), content: text, cancelled: fc.boolean() }),
	fc.record({ kind: fc.constant("rename" as const), s: fc.nat(), title: fc.string({ minLength: 1, maxLength: 20 }).filter((t) => t.trim() !== "") }),
	fc.record({ kind: fc.constant("rewrite" as const), s: fc.nat() }),
	fc.constant<Op>({ kind: "restart" }),
);

interface Model {
	id: string;
	transcript: ChatMessage[];
	summary?: ChatMessage;
}

/** Runs `ops` against a manager and a plain model of what each session must contain. */
async function play(ops: readonly Op[], store: MemoryFileStore): Promise<{ manager: SessionManager; models: Model[] }> {
	const clock = steppingClock();
	let manager = new SessionManager(store, { now: clock, onWarning: () => undefined });
	const models: Model[] = [];
	let n = 0;
	const msg = (role: ChatMessage["role"], content: string): ChatMessage => ({ id: `m${n++}`, role, content, createdAt: new Date(clock()).toISOString() });
	for (const o of ops) {
		const model = "s" in o ? models[o.s % Math.max(1, models.length)] : undefined;
		if (o.kind === "create") models.push({ id: (await manager.create()).id, transcript: [] });
		else if (o.kind === "restart") manager = new SessionManager(store, { now: clock, onWarning: () => undefined });
		else if (model === undefined) continue;
		else if (o.kind === "append") {
			const m = msg(o.role, o.content);
			await manager.appendMessage(model.id, m);
			model.transcript.push(m);
		} else if (o.kind === "summary") {
			const last = model.transcript[model.transcript.length - 1];
			const s = { ...msg("system", o.content), ...(last ? { summaryOf: last.id } : {}) };
			await manager.setSummary(model.id, s);
			model.summary = s;
		} else if (o.kind === "update") {
			const index = o.m % Math.max(1, model.transcript.length);
			const old = model.transcript[index];
			if (old === undefined) continue;
			const m: ChatMessage = { ...old, content: o.content, cancelled: o.cancelled };
			await manager.updateMessage(model.id, m);
			model.transcript[index] = m;
		} else if (o.kind === "rename") await manager.rename(model.id, o.title);
		else await manager.updateSession(await manager.load(model.id));
	}
	return { manager, models };
}

describe("SessionManager properties", () => {
	it("any sequence of operations round-trips through load, with one summary at index 0", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops) => {
				const store = new MemoryFileStore();
				const { manager, models } = await play([{ kind: "create" }, ...ops], store);
				const fresh = new SessionManager(store);
				for (const model of models) {
					const live = await manager.load(model.id);
					const reloaded = await fresh.load(model.id);
					expect(reloaded).toEqual(live);
					const expected = model.summary ? [model.summary, ...model.transcript] : model.transcript;
					expect(reloaded.messages).toEqual(expected);
					expect(reloaded.messages.filter((m) => m.role === "system").length).toBe(model.summary ? 1 : 0);
				}
			}),
			{ numRuns: 150 },
		);
	});

	it("the index rebuilt from the files equals the incremental one", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops) => {
				const store = new MemoryFileStore();
				const { manager } = await play(ops, store);
				const incremental = await manager.list();
				expect(await new SessionManager(store).list()).toEqual(incremental);
				await store.remove("index.json");
				expect(await new SessionManager(store).list()).toEqual(incremental);
			}),
			{ numRuns: 100 },
		);
	});

	it("torn and random corrupt lines never crash a load and survive updateSession", async () => {
		const garbage = fc.string({ unit: "binary", minLength: 1, maxLength: 30 }).filter((g) => !/[\n\r]/.test(g) && g.trim() !== "");
		await fc.assert(
			fc.asyncProperty(
				fc.array(op, { maxLength: 20 }),
				fc.array(fc.tuple(fc.nat(), garbage), { maxLength: 5 }),
				fc.option(fc.double({ min: 0, max: 0.95, noNaN: true })),
				async (ops, insertions, tearAt) => {
					const store = new MemoryFileStore();
					const { models } = await play([{ kind: "create" }, ...ops], store);
					const model = models[0];
					if (model === undefined) throw new Error("no session");
					const path = `sessions/${model.id}.jsonl`;
					const lines = (store.files.get(path) ?? "").split("\n").slice(0, -1);
					for (const [at, line] of insertions) lines.splice(at % (lines.length + 1), 0, line);
					let content = lines.join("\n") + "\n";
					if (tearAt !== null) {
						const torn = JSON.stringify({ type: "message", message: { id: "torn", role: "user", content: "x".repeat(20), createdAt: "t" } });
						content += torn.slice(0, 1 + Math.floor(tearAt * (torn.length - 2)));
					}
					await store.write(path, content);
					const warnings: string[] = [];
					const manager = new SessionManager(store, { onWarning: (w) => warnings.push(w) });
					const loaded = await manager.load(model.id);
					expect(loaded.messages).toEqual(model.summary ? [model.summary, ...model.transcript] : model.transcript);
					expect(warnings.length).toBe(insertions.length + (tearAt === null ? 0 : 1));
					await manager.updateSession(loaded);
					await manager.appendMessage(model.id, { id: "after", role: "user", content: "after", createdAt: "2030-01-01T00:00:00.000Z" });
					const rewritten = (store.files.get(path) ?? "").split("\n").filter((l) => l !== "");
					const raws = rewritten.map((l) => JSON.parse(l) as { type: string; raw?: string }).filter((r) => r.type === "corrupt").map((r) => r.raw);
					for (const [, line] of insertions) expect(raws).toContain(line);
					const again = await new SessionManager(store, { onWarning: () => undefined }).load(model.id);
					expect(again.messages.map((m) => m.id)).toEqual([...loaded.messages.map((m) => m.id), "after"]);
				},
			),
			{ numRuns: 150 },
		);
	});

	it("search finds every inserted needle, whatever its case", async () => {
		const needle = fc.stringMatching(/^[a-zA-Z0-9]{3,8}$/);
		const filler = fc.string({ maxLength: 30 });
		await fc.assert(
			fc.asyncProperty(
				needle,
				fc.array(fc.array(fc.tuple(filler, fc.boolean(), fc.boolean(), filler), { maxLength: 6 }), { minLength: 1, maxLength: 5 }),
				async (word, sessions) => {
					const manager = new SessionManager(new MemoryFileStore(), { now: steppingClock() });
					const expected: string[] = [];
					let n = 0;
					const made: { id: string; messages: ChatMessage[] }[] = [];
					for (const spec of sessions) {
						const { id } = await manager.create();
						const messages: ChatMessage[] = [];
						for (const [before, insert, upper, after] of spec) {
							const content = before + (insert ? (upper ? word.toUpperCase() : word.toLowerCase()) : "") + after;
							const m: ChatMessage = { id: `m${n++}`, role: n % 2 ? "user" : "assistant", content, createdAt: "2026-01-01T00:00:00.000Z" };
							await manager.appendMessage(id, m);
							messages.push(m);
						}
						made.push({ id, messages });
					}
					// Newest session first: every append moves its session to the front.
					const order = [...made].reverse();
					for (const s of order) for (const m of s.messages) if (m.content.toLowerCase().includes(word.toLowerCase())) expected.push(m.id);
					const query = word.split("").map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join("");
					const hits = await manager.search(query, { limit: 10_000 });
					expect(hits.map((h) => h.messageId)).toEqual(expected);
					for (const hit of hits) expect(hit.snippet.toLowerCase()).toContain(word.toLowerCase());
				},
			),
			{ numRuns: 100 },
		);
	});

	it("ids sort by creation time", () => {
		fc.assert(
			fc.property(fc.integer({ min: 1e12, max: 4e12 }), fc.array(fc.nat({ max: 3 }), { maxLength: 200 }), (start, steps) => {
				let t = start;
				const ids = steps.map((step) => newId((t += step)));
				expect([...ids].sort()).toEqual(ids);
				expect(new Set(ids).size).toBe(ids.length);
			}),
		);
	});

	it("sessions created one after another list and sort in creation order", async () => {
		const manager = new SessionManager(new MemoryFileStore());
		const ids: string[] = [];
		for (let i = 0; i < 30; i++) ids.push((await manager.create()).id);
		expect([...ids].sort()).toEqual(ids);
	});
});
