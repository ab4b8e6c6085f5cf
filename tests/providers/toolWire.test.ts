// What each dialect sends when a prompt offers tools, holds the model's calls and their results.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GenerateRequest, PromptMessage, ToolSpec } from "../../src/core/types";
import { createAdapter, type ProviderName } from "../../src/providers";
import { toAnthropicPrompt, type AnthropicBlock } from "../../src/providers/anthropicPrompt";
import { MISSING_RESULT } from "../../src/providers/toolPrompt";
import { memoryTransport } from "../support/memoryTransport";

const TOOLS: ToolSpec[] = [
	{ name: "read_note", description: "Reads a note.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
	{ name: "get_active_note", description: "The open note.", parameters: { type: "object", properties: {} } },
];

const LOOP: PromptMessage[] = [
	{ role: "system", content: "You are Discover." },
	{ role: "user", content: "Compare a and b." },
	{
		role: "assistant",
		content: "Reading both.",
		toolCalls: [
			{ id: "call_1", name: "read_note", arguments: { path: "a.md" } },
			{ id: "call_2", name: "read_note", arguments: { path: "b.md" } },
		],
	},
	{ role: "tool", content: "# A", toolCallId: "call_1", name: "read_note" },
	{ role: "tool", content: "No note at b.md", toolCallId: "call_2", name: "read_note", isError: true },
	{ role: "assistant", content: "", toolCalls: [{ id: "call_3", name: "get_active_note", arguments: {} }] },
	{ role: "tool", content: "c.md", toolCallId: "call_3", name: "get_active_note" },
];

async function sentBody(provider: ProviderName, messages: PromptMessage[], tools: ToolSpec[] | undefined = TOOLS): Promise<Record<string, unknown>> {
	const transport = memoryTransport({ status: 500, chunks: [] });
	const req: GenerateRequest = { purpose: "chat", messages, maxTokens: 100, contextWindow: 4096, tools };
	await createAdapter({ provider, baseUrl: "http://127.0.0.1:9", model: "m", transport }).generate(req).catch(() => undefined);
	return JSON.parse(transport.calls[0]?.init.body ?? "{}") as Record<string, unknown>;
}

describe("request bodies with tools", () => {
	it("ollama: tools as functions, calls with arguments as objects, results as role tool with tool_name", async () => {
		const body = await sentBody("ollama", LOOP);
		expect(body.tools).toEqual([
			{ type: "function", function: { name: "read_note", description: "Reads a note.", parameters: TOOLS[0]?.parameters } },
			{ type: "function", function: { name: "get_active_note", description: "The open note.", parameters: TOOLS[1]?.parameters } },
		]);
		expect(body.messages).toEqual([
			{ role: "system", content: "You are Discover." },
			{ role: "user", content: "Compare a and b." },
			{
				role: "assistant",
				content: "Reading both.",
				tool_calls: [
					{ id: "call_1", function: { name: "read_note", arguments: { path: "a.md" } } },
					{ id: "call_2", function: { name: "read_note", arguments: { path: "b.md" } } },
				],
			},
			{ role: "tool", content: "# A", tool_name: "read_note", tool_call_id: "call_1" },
			{ role: "tool", content: "Error: No note at b.md", tool_name: "read_note", tool_call_id: "call_2" },
			{ role: "assistant", content: "", tool_calls: [{ id: "call_3", function: { name: "get_active_note", arguments: {} } }] },
			{ role: "tool", content: "c.md", tool_name: "get_active_note", tool_call_id: "call_3" },
		]);
	});

	it("openai: tools as functions, arguments as JSON strings, content null before bare calls, results with tool_call_id", async () => {
		const body = await sentBody("openai", LOOP);
		expect(body.tools).toEqual([
			{ type: "function", function: { name: "read_note", description: "Reads a note.", parameters: TOOLS[0]?.parameters } },
			{ type: "function", function: { name: "get_active_note", description: "The open note.", parameters: TOOLS[1]?.parameters } },
		]);
		expect(body.messages).toEqual([
			{ role: "system", content: "You are Discover." },
			{ role: "user", content: "Compare a and b." },
			{
				role: "assistant",
				content: "Reading both.",
				tool_calls: [
					{ id: "call_1", type: "function", function: { name: "read_note", arguments: '{"path":"a.md"}' } },
					{ id: "call_2", type: "function", function: { name: "read_note", arguments: '{"path":"b.md"}' } },
				],
			},
			{ role: "tool", tool_call_id: "call_1", content: "# A" },
			{ role: "tool", tool_call_id: "call_2", content: "Error: No note at b.md" },
			{ role: "assistant", content: null, tool_calls: [{ id: "call_3", type: "function", function: { name: "get_active_note", arguments: "{}" } }] },
			{ role: "tool", tool_call_id: "call_3", content: "c.md" },
		]);
	});

	it("anthropic: input_schema; text then tool_use in order; one user turn of tool_results per round, is_error on failures", async () => {
		const body = await sentBody("anthropic", [...LOOP.slice(0, 5), { role: "user", content: "And the open note?" }, ...LOOP.slice(5)]);
		expect(body.tools).toEqual([
			{ name: "read_note", description: "Reads a note.", input_schema: TOOLS[0]?.parameters },
			{ name: "get_active_note", description: "The open note.", input_schema: TOOLS[1]?.parameters },
		]);
		expect(body.system).toEqual([{ type: "text", text: "You are Discover.", cache_control: { type: "ephemeral" } }]);
		expect(body.messages).toEqual([
			{ role: "user", content: "Compare a and b." },
			{
				role: "assistant",
				content: [
					{ type: "text", text: "Reading both." },
					{ type: "tool_use", id: "call_1", name: "read_note", input: { path: "a.md" } },
					{ type: "tool_use", id: "call_2", name: "read_note", input: { path: "b.md" } },
				],
			},
			{
				role: "user",
				content: [
					{ type: "tool_result", tool_use_id: "call_1", content: "# A" },
					{ type: "tool_result", tool_use_id: "call_2", content: "No note at b.md", is_error: true },
					{ type: "text", text: "And the open note?" },
				],
			},
			// The turn before the latest user turn carries the conversation's cache breakpoint.
			{ role: "assistant", content: [{ type: "tool_use", id: "call_3", name: "get_active_note", input: {}, cache_control: { type: "ephemeral" } }] },
			{ role: "user", content: [{ type: "tool_result", tool_use_id: "call_3", content: "c.md" }] },
		]);
	});

	it("anthropic: ids from another provider are mapped to the characters Anthropic accepts, on the call and its result alike", () => {
		const prompt = toAnthropicPrompt(
			[
				{ role: "user", content: "Go" },
				{ role: "assistant", content: "", toolCalls: [{ id: "call:7/x", name: "read_note", arguments: {} }] },
				{ role: "tool", content: "ok", toolCallId: "call:7/x", name: "read_note" },
			],
			TOOLS,
		);
		expect(prompt.messages[1]?.content).toEqual([{ type: "tool_use", id: "call_7_x", name: "read_note", input: {} }]);
		expect(prompt.messages[2]?.content).toEqual([{ type: "tool_result", tool_use_id: "call_7_x", content: "ok" }]);
	});

	for (const provider of ["ollama", "openai", "anthropic"] as const) {
		it(`${provider}: without tools offered, no tools field and calls and results go as plain text`, async () => {
			const body = await sentBody(provider, LOOP, []);
			expect(body).not.toHaveProperty("tools");
			const text = JSON.stringify(body.messages);
			expect(text).not.toMatch(/tool_calls|tool_use|tool_result|"role":"tool"/);
			expect(text).toContain("[Called the tool read_note with {\\\"path\\\":\\\"a.md\\\"}]");
			expect(text).toContain("[Result of the tool read_note (an error)]\\nNo note at b.md");
		});

		it(`${provider}: a call left without a result gets an error result; a result without a call goes as text`, async () => {
			const body = await sentBody(provider, [
				{ role: "tool", content: "stray", toolCallId: "call_0", name: "read_note" },
				{ role: "user", content: "Go" },
				{ role: "assistant", content: "", toolCalls: [{ id: "call_9", name: "read_note", arguments: { path: "x" } }] },
				{ role: "user", content: "Stopped; go on." },
			]);
			const text = JSON.stringify(body.messages);
			expect(text).toContain(JSON.stringify(MISSING_RESULT).slice(1, -1));
			expect(text).toContain("[Result of the tool read_note]\\nstray");
		});
	}
});

const messageArb: fc.Arbitrary<PromptMessage[]> = fc
	.array(
		fc.oneof(
			fc.record({ role: fc.constantFrom("system" as const, "user" as const, "assistant" as const), content: fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.constantFrom("", " ")) }),
			fc.record({
				role: fc.constant("assistant" as const),
				content: fc.constantFrom("", "Let me look."),
				toolCalls: fc.array(fc.record({ id: fc.constantFrom("a", "b", "c", "d"), name: fc.constantFrom("read_note", "search_notes"), arguments: fc.constant({}) }), { minLength: 1, maxLength: 3 }),
			}),
			fc.record({ role: fc.constant("tool" as const), content: fc.string({ maxLength: 8 }), toolCallId: fc.constantFrom("a", "b", "c", "d", "z"), name: fc.constant("read_note"), isError: fc.boolean() }),
		),
		{ maxLength: 14 },
	)
	// Ids are unique per answer in real streams.
	.map((ms) =>
		ms.map((m: PromptMessage, i): PromptMessage => {
			if (m.toolCalls) return { ...m, toolCalls: m.toolCalls.map((c, j) => ({ ...c, id: `${c.id}${i}_${j}` })) };
			return m.role === "tool" ? { ...m, toolCallId: `${m.toolCallId ?? ""}${i - 1}_0` } : m;
		}),
	);

describe("toAnthropicPrompt with tools, any message sequence", () => {
	it("alternates, opens with the user, and answers every tool_use in the very next user turn, results first", () => {
		fc.assert(
			fc.property(messageArb, (msgs) => {
				const { messages } = toAnthropicPrompt(msgs, TOOLS);
				expect(messages[0]?.role).toBe("user");
				messages.forEach((m, i) => {
					if (i > 0) expect(m.role).not.toBe(messages[i - 1]?.role);
					const blocks: AnthropicBlock[] = typeof m.content === "string" ? [] : m.content;
					const uses = blocks.filter((b) => b.type === "tool_use").map((b) => (b.type === "tool_use" ? b.id : ""));
					if (uses.length === 0) return;
					const next = messages[i + 1];
					expect(next?.role).toBe("user");
					const nextBlocks: AnthropicBlock[] = typeof next?.content === "string" ? [] : (next?.content ?? []);
					const results = nextBlocks.filter((b) => b.type === "tool_result").map((b) => (b.type === "tool_result" ? b.tool_use_id : ""));
					expect([...results].sort()).toEqual([...uses].sort());
					// tool_result blocks come first in their turn.
					expect(nextBlocks.slice(0, results.length).every((b) => b.type === "tool_result")).toBe(true);
				});
				// No result without its call.
				const allUses = new Set(messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content.flatMap((b) => (b.type === "tool_use" ? [b.id] : [])))));
				for (const m of messages) if (typeof m.content !== "string") for (const b of m.content) if (b.type === "tool_result") expect(allUses.has(b.tool_use_id)).toBe(true);
			}),
			{ numRuns: 300 },
		);
	});
});

describe("the engine's call ids and the server's", () => {
	// Two calls the server named alike (call_0, call_0), each under the engine's own id: paired by
	// ours, sent back under the server's. A call saved before engine ids (no serverId) goes as it is.
	const REUSED: PromptMessage[] = [
		{ role: "user", content: "Read a and b." },
		{
			role: "assistant",
			content: "",
			toolCalls: [
				{ id: "dtc_a", serverId: "call_0", name: "read_note", arguments: { path: "a.md" } },
				{ id: "dtc_b", serverId: "call_0", name: "read_note", arguments: { path: "b.md" } },
			],
		},
		{ role: "tool", content: "# A", toolCallId: "dtc_a", name: "read_note" },
		{ role: "tool", content: "# B", toolCallId: "dtc_b", name: "read_note" },
		{ role: "assistant", content: "", toolCalls: [{ id: "old_1", name: "get_active_note", arguments: {} }] },
		{ role: "tool", content: "c.md", toolCallId: "old_1", name: "get_active_note" },
	];

	it("openai and ollama: each result is paired with its own call and answers the server by the server's id; ours never leaves", async () => {
		for (const provider of ["openai", "ollama"] as const) {
			const body = await sentBody(provider, REUSED);
			const messages = body.messages as { role: string; content?: string; tool_call_id?: string; tool_calls?: { id: string }[] }[];
			expect(messages.filter((m) => m.role === "tool").map((m) => [m.tool_call_id, m.content])).toEqual([
				["call_0", "# A"],
				["call_0", "# B"],
				["old_1", "c.md"],
			]);
			expect(messages.flatMap((m) => m.tool_calls ?? []).map((c) => c.id)).toEqual(["call_0", "call_0", "old_1"]);
			expect(JSON.stringify(body)).not.toContain("dtc_");
		}
	});

	it("anthropic: tool_use and tool_result blocks carry the server's id", () => {
		const prompt = toAnthropicPrompt(REUSED, TOOLS);
		const blocks = prompt.messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content));
		expect(blocks.flatMap((b) => (b.type === "tool_use" ? [b.id] : b.type === "tool_result" ? [b.tool_use_id] : []))).toEqual(["call_0", "call_0", "call_0", "call_0", "old_1", "old_1"]);
		expect(JSON.stringify(prompt)).not.toContain("dtc_");
	});
});
