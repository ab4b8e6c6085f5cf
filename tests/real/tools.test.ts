// Tool calls from a real model through Discover's loop, against a memory vault: a read tool runs
// unasked, a write asks, the results go back on the wire, and the chat reloads with them. The model
// is tiny: the prompt makes a call likely, and where it answers without one, another seed is tried
// (at most 3 seeds), said in the log. Only the protocol is asserted, never the model's words. The
// read tool is list_notes: the tiny model never called search_notes (Discover's description of it)
// with any seed or wording tried; the loop treats every read tool alike (unasked).
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import type { ChatMessage, ToolCall } from "../../src/core/types";
import { createAdapter } from "../../src/providers";
import { fetchTransport, loadNodeTransport } from "../../src/providers/transport";
import { createVaultTools, type ToolScope } from "../../src/tools";
import { MemoryVault } from "../../src/tools/memoryVault";
import { PermissionRules, type AlwaysRule, type RuleStore } from "../../src/tools/permissions";
import { figure, MODEL, realChat, recording } from "./engine";
import { serverUrl } from "./servers";

const SCOPE: ToolScope = { chatsFolder: () => "Discover/Chats", excludedFolders: () => [] };
const NOTES = {
	"Boats/Lighthouse.md": "# Lighthouse\n\nThe lighthouse keeper logs every ship.\n",
	"Boats/Storms.md": "# Storms\n\nThe winter storms close the harbour.\n",
};
const SEEDS = [7, 42, 1234];

interface WireMessage {
	role: string;
	tool_calls?: { id: string; function: { name: string } }[];
	tool_call_id?: string;
}

function memoryRules(): RuleStore {
	let rules: AlwaysRule[] = [];
	return {
		readAllowed: () => true,
		alwaysRules: () => rules,
		saveAlwaysRules: (next: AlwaysRule[]) => {
			rules = next;
			return Promise.resolve();
		},
	};
}

/** Runs `prompt` with the vault tools under each seed until the model calls `wanted`; what happened. */
async function untilCalled(prompt: string, wanted: string, transportName: "fetch" | "node") {
	for (const seed of SEEDS) {
		const vault = new MemoryVault({ ...NOTES }, { configDir: ".obsidian" });
		// Only the tool under test, and no system prompt: offered all six tools or given Discover's
		// system prompt, this 5 M model answers in words instead (seen with every seed).
		const tools = createVaultTools(vault, SCOPE).tools.filter((t) => t.name === wanted);
		const asked: ToolCall[] = [];
		const transport = recording(transportName === "fetch" ? fetchTransport : await loadNodeTransport(), { seed });
		const real = realChat(serverUrl("chat"), transport, { maxPromptTokens: 2048, reservedResponseTokens: 256, maxToolRounds: 2, systemPrompt: "" }, {
			tools,
			// The plugin's own rules: reads run unasked, every write asks (here, allowed once).
			approve: new PermissionRules(memoryRules()).approverFor(`tools-${seed}`, (call) => {
				asked.push(call);
				return Promise.resolve({ kind: "once" });
			}),
		});
		const answer = await real.chat.sendMessage(prompt);
		const calls = real.chat.messages.flatMap((m) => m.toolCalls ?? []);
		if (calls.some((c) => c.name === wanted)) return { ...real, vault, asked, calls, answer, transport, seed };
		figure(`tool test: no ${wanted} call with seed ${seed}`, answer.content.slice(0, 80));
	}
	throw new Error(`the model did not call ${wanted} with any of the seeds ${SEEDS.join(", ")}`);
}

/** The loop's protocol on the wire: every tool result that went back answers a call of the message before it. */
function expectResultsWentBack(bodies: unknown[]): void {
	const later = bodies.map((b) => (b as { messages?: WireMessage[] }).messages ?? []).filter((messages) => messages.some((m) => m.role === "tool"));
	expect(later.length).toBeGreaterThan(0);
	for (const messages of later) {
		const ids = new Set(messages.flatMap((m) => m.tool_calls?.map((c) => c.id) ?? []));
		for (const m of messages.filter((x) => x.role === "tool")) expect(ids.has(m.tool_call_id ?? "")).toBe(true);
	}
}

async function expectReloads(real: { chat: ChatService; sessions: import("../../src/sessions/SessionManager").SessionManager }): Promise<ChatMessage[]> {
	const reloaded = new ChatService({ adapter: createAdapter({ provider: "openai", baseUrl: "http://127.0.0.1:9/v1", model: MODEL }), sessions: real.sessions, model: MODEL });
	await reloaded.loadSession(real.chat.sessionId ?? "");
	const strip = (messages: readonly ChatMessage[]) => messages.map((m) => ({ role: m.role, content: m.content, toolCalls: m.toolCalls?.map((c) => c.id), toolCallId: m.toolCallId }));
	expect(strip(reloaded.messages)).toEqual(strip(real.chat.messages));
	return [...reloaded.messages];
}

describe("tool calls from llama.cpp through Discover's loop", () => {
	for (const transportName of ["fetch", "node"] as const) {
		it(`a read tool (list_notes) runs unasked, its result goes back, and the chat reloads with it (${transportName})`, async () => {
			const run = await untilCalled("List my notes in the folder Boats.", "list_notes", transportName);
			figure(`list_notes called (${transportName}), seed`, run.seed);
			expect(run.asked.filter((c) => c.name === "list_notes")).toEqual([]);
			const results = run.chat.messages.filter((m) => m.role === "tool");
			const readCall = run.calls.find((c) => c.name === "list_notes");
			expect(results.map((m) => m.toolCallId)).toContain(readCall?.id);
			expect(run.transport.statuses.every((s) => s === 200)).toBe(true);
			expectResultsWentBack(run.transport.bodies);
			const reloaded = await expectReloads(run);
			expect(reloaded.some((m) => m.role === "tool" && m.toolCallId === readCall?.id)).toBe(true);
		});
	}

	it("a write asks first, and runs once allowed", async () => {
		const run = await untilCalled("Please create a note named Ideas with the text ship in May.", "create_note", "fetch");
		figure("create_note called, seed", run.seed);
		const writes = run.calls.filter((c) => c.name === "create_note");
		// Every write was asked about, before the result existed.
		expect(run.asked.map((c) => c.id)).toEqual(expect.arrayContaining(writes.map((c) => c.id)));
		const results = run.chat.messages.filter((m) => m.role === "tool" && writes.some((c) => c.id === m.toolCallId));
		expect(results.length).toBe(writes.length);
		// An allowed create that did not fail made a note; one that failed (a bad path) came back as an error the model can read.
		const created = results.filter((m) => m.isError !== true).length;
		if (created > 0) expect(run.vault.listNotes().length).toBeGreaterThan(Object.keys(NOTES).length);
		else expect(run.vault.listNotes().length).toBe(Object.keys(NOTES).length);
		expectResultsWentBack(run.transport.bodies);
		await expectReloads(run);
	});
});
