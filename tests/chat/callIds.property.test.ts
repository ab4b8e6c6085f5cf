// Calls are ours to name, as a property: for random sequences of write calls with random, often repeated, server
// ids (call_0 again and again, or none at all) across random chats of one engine sharing one change
// journal, Revert of any call restores exactly that call's before-text and never another's, and is
// refused, touching nothing, when the note changed since that call wrote it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ChatService, type ChatEvent } from "../../src/chat/ChatService";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { createVaultTools } from "../../src/tools";
import { MemoryVault } from "../../src/tools/memoryVault";
import type { ToolCall } from "../../src/core/types";
import { ScriptedToolAdapter, type ScriptStep } from "../support/toolScript";

const NOTES = ["A.md", "B.md", "C.md"];
const SCOPE = { chatsFolder: () => "Discover/Chats", excludedFolders: () => [] };

/** One write: append to a note, with the id the server gives the call ("" for none). */
const write = fc.record({ note: fc.constantFrom(...NOTES), serverId: fc.constantFrom("call_0", "call_1", "toolu_0", "") });
/** Chats, each a turn of rounds, each round one to three writes. */
const plan = fc.array(fc.array(fc.array(write, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 });

describe("the engine's call ids", () => {
	it("property: Revert of any call restores exactly that call's before-text, never another's, whatever ids the server reuses across chats", async () => {
		await fc.assert(
			fc.asyncProperty(plan, fc.infiniteStream(fc.nat()), async (chats, picks) => {
				const vault = new MemoryVault(Object.fromEntries(NOTES.map((p) => [p, `# ${p}\n`])), { configDir: ".obsidian" });
				const { tools, changes } = createVaultTools(vault, SCOPE, () => 1_000);
				let marker = 0;
				const steps: ScriptStep[] = [];
				for (const rounds of chats) {
					for (const round of rounds) {
						const calls: ToolCall[] = round.map((w) => ({ id: w.serverId, name: "edit_note", arguments: { path: w.note, mode: "append", text: `line ${++marker}` } }));
						steps.push({ calls });
					}
					steps.push({ text: "Done." });
				}
				const adapter = new ScriptedToolAdapter(() => steps.shift() ?? { text: "Done." });
				// What each call saw and left: read from the vault as its card goes to running and to done.
				const writes = new Map<string, { path: string; before: string; after: string }>();
				const text = (path: string): string => vault.files.get(path)?.text ?? "";
				const onEvent = (e: ChatEvent): void => {
					if (e.type !== "tool" || e.card.name !== "edit_note") return;
					const path = String(e.card.arguments?.path);
					if (e.card.state === "running") writes.set(e.card.id, { path, before: text(path), after: "" });
					if (e.card.state === "done") writes.get(e.card.id)!.after = text(path);
				};
				const chat = new ChatService({ adapter, sessions: new SessionManager(new MemoryFileStore(), { onWarning: () => undefined }), settings: { maxPromptTokens: 100_000, reservedResponseTokens: 256 }, tools, approve: () => Promise.resolve("allow"), onEvent });
				for (let c = 0; c < chats.length; c++) {
					await chat.newSession();
					await chat.sendMessage(`Chat ${c}`);
				}
				const total = chats.flat(2).length;
				expect(writes.size).toBe(total);
				// Revert every call, in a random order.
				const ids = [...writes.keys()];
				const order: string[] = [];
				const it = picks[Symbol.iterator]();
				while (ids.length > 0) order.push(ids.splice((it.next().value as number) % ids.length, 1)[0]!);
				for (const id of order) {
					const w = writes.get(id)!;
					const snapshot = new Map(NOTES.map((p) => [p, text(p)]));
					const unchangedSince = text(w.path) === w.after;
					const reverted = await changes.revert(id).then(
						() => true,
						() => false,
					);
					expect(reverted).toBe(unchangedSince);
					for (const p of NOTES) expect(text(p)).toBe(p === w.path && reverted ? w.before : snapshot.get(p));
				}
			}),
			{ numRuns: 60 },
		);
	});
});
