import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import { CONDENSED_PREFIX } from "../../src/chat/compaction";
import { chatErrorCode } from "../../src/chat/errors";
import { CONTINUE_INSTRUCTION } from "../../src/chat/turnMode";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { parseSessionFile } from "../../src/sessions/records";
import { SessionManager } from "../../src/sessions/SessionManager";
import type { ChatMessage, ChatSettings } from "../../src/core/types";
import { copyStore } from "../support/chatHarness";
import { ScriptedAdapter } from "../support/scriptedAdapter";

// A window small enough that a dozen turns get compacted, so summaries meet branches.
const SETTINGS: Partial<ChatSettings> = { maxPromptTokens: 700, reservedResponseTokens: 120, recentMessagesToKeep: 4, minRecentMessagesToKeep: 2, systemPrompt: "Be brief." };

type Op =
	| { kind: "send" | "stop" | "regenerate" | "continue" | "reload" }
	| { kind: "edit" | "delete" | "restore" | "switch"; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
	{ weight: 4, arbitrary: fc.constant({ kind: "send" as const }) },
	{ weight: 1, arbitrary: fc.constant({ kind: "stop" as const }) },
	{ weight: 2, arbitrary: fc.constant({ kind: "regenerate" as const }) },
	{ weight: 1, arbitrary: fc.constant({ kind: "continue" as const }) },
	{ weight: 1, arbitrary: fc.constant({ kind: "reload" as const }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant("edit" as const), pick: fc.nat() }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant("restore" as const), pick: fc.nat() }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant("switch" as const), pick: fc.nat() }) },
);

function fileOf(store: MemoryFileStore): string {
	const [path] = [...store.files.keys()].filter((p) => p.endsWith(".jsonl"));
	const data = path === undefined ? "" : store.files.get(path);
	return typeof data === "string" ? data : new TextDecoder().decode(data);
}

/** The test's own model of the chat's branches: which message follows which, the leaf, the hidden turns. */
class BranchModel {
	private readonly parent = new Map<string, string | null>();
	private readonly order: string[] = [];
	private readonly roles = new Map<string, string>();
	leaf: string | null = null;
	readonly hidden = new Set<string>();

	add(message: ChatMessage, parent: string | null): void {
		this.parent.set(message.id, parent);
		this.roles.set(message.id, message.role);
		this.order.push(message.id);
		this.leaf = message.id;
	}

	parentOf(id: string): string | null {
		return this.parent.get(id) ?? null;
	}

	path(): string[] {
		const out: string[] = [];
		for (let id = this.leaf; id !== null; id = this.parentOf(id)) out.push(id);
		return out.reverse();
	}

	visible(): string[] {
		let skipping = false;
		return this.path().filter((id) => {
			if (this.roles.get(id) === "user") skipping = this.hidden.has(id);
			return !skipping;
		});
	}

	turnOf(id: string): string {
		const path = this.path();
		let i = path.indexOf(id);
		while (i > 0 && this.roles.get(path[i]!) !== "user") i--;
		return path[i]!;
	}

	switchTo(id: string): void {
		if (!this.parent.has(id) || this.path().includes(id)) return;
		const under = (x: string): boolean => {
			for (let at: string | null = x; at !== null; at = this.parentOf(at)) if (at === id) return true;
			return false;
		};
		this.leaf = [...this.order].reverse().find(under) ?? id;
	}
}

const shape = (messages: readonly ChatMessage[]): string[] => messages.map((m) => `${m.role}:${m.id}:${m.content}`);

/** A few words per text, so a dozen turns overflow the window. */
const say = (n: number, what: string): string => `${what}${n} ` + "alpha beta gamma delta ".repeat(20);

describe("branches, property", () => {
	const stats = { runs: 0, withSummary: 0 };
	it("prompts hold only the active branch, nothing written is lost, and a reload reproduces the branch and the next prompt", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 20 }), async (ops) => {
				const store = new MemoryFileStore();
				let adapter = new ScriptedAdapter();
				let sessions = new SessionManager(store, { onWarning: () => undefined });
				let chat = new ChatService({ adapter, sessions, settings: SETTINGS });
				const written: string[] = [];
				const model = new BranchModel();
				let summariesSent = 0;
				let n = 0;
				const rejected = (err: unknown): void => {
					expect(chatErrorCode(err)).toBe("no_such_turn");
				};
				const last = (k: number): ChatMessage => chat.messages[chat.messages.length - k]!;
				// Enough turns first that the chat is compacted: every run meets a summary.
				for (let i = 0; i < 9; i++) {
					await chat.sendMessage(say(n++, "q"));
					model.add(last(2), model.leaf);
					model.add(last(1), last(2).id);
				}
				for (const op of ops) {
					const asked = adapter.chatRequests.length;
					const visible = chat.messages.filter((m) => m.role !== "system");
					let current: string | undefined;
					switch (op.kind) {
						case "send":
							current = say(n++, "q");
							await chat.sendMessage(current);
							model.add(last(2), model.leaf);
							model.add(last(1), last(2).id);
							break;
						case "stop": {
							current = say(n++, "q");
							const stop = new AbortController();
							const partial = `partial${n++}`;
							written.push(partial);
							adapter.stopNext = { partial, stop: () => stop.abort() };
							await chat.sendMessage(current, { signal: stop.signal });
							model.add(last(2), model.leaf);
							model.add(last(1), last(2).id);
							break;
						}
						case "regenerate": {
							const user = [...visible].reverse().find((m) => m.role === "user");
							current = user?.content;
							await chat.regenerate().catch(rejected);
							if (user !== undefined) model.add(last(1), user.id);
							break;
						}
						case "continue":
							await chat.continueAnswer().catch(rejected);
							break;
						case "edit": {
							const users = visible.filter((m) => m.role === "user");
							const target = users[op.pick % Math.max(1, users.length)];
							if (target === undefined) break;
							current = say(n++, "edit");
							await chat.editMessage(target.id, current);
							model.add(last(2), model.parentOf(target.id));
							model.add(last(1), last(2).id);
							break;
						}
						case "delete": {
							const target = visible[op.pick % Math.max(1, visible.length)];
							if (target === undefined) break;
							await chat.deleteTurn(target.id);
							model.hidden.add(model.turnOf(target.id));
							break;
						}
						case "restore": {
							const hidden = await sessions.hiddenTurns(chat.sessionId!);
							const target = hidden[op.pick % Math.max(1, hidden.length)];
							if (target === undefined) break;
							await chat.restoreTurn(target.id);
							model.hidden.delete(target.id);
							break;
						}
						case "switch": {
							const ids = parseSessionFile(fileOf(store)).records.flatMap((r) => (r.type === "message" && r.message.role !== "system" ? [r.message.id] : []));
							const target = ids[op.pick % Math.max(1, ids.length)];
							if (target === undefined) break;
							await chat.switchBranch(target).catch(rejected);
							model.switchTo(target);
							break;
						}
						case "reload": {
							const id = chat.sessionId!;
							adapter = new ScriptedAdapter();
							sessions = new SessionManager(store, { onWarning: () => undefined });
							chat = new ChatService({ adapter, sessions, settings: SETTINGS });
							await chat.loadSession(id);
							break;
						}
					}
					if (current !== undefined && !written.includes(current)) written.push(current);
					const active = chat.messages;
					// The chat shows exactly the model's active branch, hidden turns left out.
					expect(active.filter((m) => m.role !== "system").map((m) => m.id)).toEqual(model.visible());
					if (adapter.chatRequests.length > asked) {
						const prompt = adapter.lastChat!.messages;
						written.push(...active.filter((m) => m.role === "assistant").map((m) => m.content));
						// One leading system message at most, and its summary (if any) is one this branch may use.
						expect(prompt.slice(1).every((m) => m.role !== "system")).toBe(true);
						const records = parseSessionFile(fileOf(store)).records;
						const activeIds = new Set(active.map((m) => m.id));
						for (const r of records) {
							if (r.type !== "summary" || !(prompt[0]?.content ?? "").includes(r.message.content)) continue;
							expect(r.message.summaryOf === undefined || activeIds.has(r.message.summaryOf)).toBe(true);
							summariesSent++;
						}
						// Every message sent is on the active branch (or the continuation's instruction).
						const shown = new Set(active.map((m) => m.content));
						for (const m of prompt.slice(1)) {
							if (m.content === CONTINUE_INSTRUCTION || m.content.startsWith(CONDENSED_PREFIX)) continue;
							const partOfContinued = active.some((a) => a.role === "assistant" && a.content.startsWith(m.content));
							expect(shown.has(m.content) || partOfContinued).toBe(true);
						}
						// The person's message is sent once.
						const turnText = [...active].reverse().find((m) => m.role === "user")?.content;
						expect(prompt.filter((m) => m.role === "user" && m.content === turnText)).toHaveLength(1);
					}
					// Nothing written is lost from the file.
					const file = fileOf(store);
					for (const text of written) expect(file).toContain(text.trim());
					// A reload shows the same branch.
					const reloaded = await new SessionManager(copyStore(store), { onWarning: () => undefined }).load(chat.sessionId!);
					expect(shape(reloaded.messages)).toEqual(shape(chat.messages));
				}
				// And builds the same next prompt.
				const twinAdapter = new ScriptedAdapter();
				const twin = new ChatService({ adapter: twinAdapter, sessions: new SessionManager(copyStore(store), { onWarning: () => undefined }), settings: SETTINGS });
				await twin.loadSession(chat.sessionId!);
				const probeAdapter = new ScriptedAdapter();
				chat.setAdapter(probeAdapter);
				await chat.sendMessage("probe");
				await twin.sendMessage("probe");
				expect(twinAdapter.requests).toEqual(probeAdapter.requests);
				stats.runs++;
				if (summariesSent > 0) stats.withSummary++;
			}),
			{ numRuns: 50 },
		);
		// The runs did meet summaries (the point of the small window).
		expect(stats.withSummary).toBeGreaterThan(stats.runs / 2);
	});
});
