// The tool definitions a request carries are part of its prompt: they are charged against the
// budget of every request that offers tools (and of no other), shown on the meter, and a server's
// count that includes them does not teach the calibration a larger factor for every prompt.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import { TokenCalibration } from "../../src/chat/calibration";
import { compactionBudget } from "../../src/chat/compaction";
import { normalizeChatSettings } from "../../src/chat/chatSettings";
import { promptCost } from "../../src/chat/promptCost";
import { estimateTokens } from "../../src/chat/tokens";
import { chargedToolTokens } from "../../src/chat/toolDefinitions";
import type { ChatEvent } from "../../src/chat/turnPrompt";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import type { ChatSettings, GenerateRequest, GenerateResult, LLMAdapter, Tool, ToolCall, ToolSpec } from "../../src/core/types";
import { words } from "../support/chatHarness";
import { ScriptedToolAdapter, type ScriptStep } from "../support/toolScript";
import { toolbox } from "../tools/support";

/** The six vault tools' real specs, with runs that return what the test says. */
function vaultTools(result: (name: string, args: Record<string, unknown>) => string): Tool[] {
	return toolbox({}).tools.map((t) => ({ ...t, run: (args: Record<string, unknown>) => Promise.resolve(result(t.name, args)) }));
}

/**
 * The definitions as an OpenAI-compatible or Ollama server receives them (each tool's
 * `{"type":"function","function":{…}}`), plus a chat template's tool instructions (Qwen 2.5's block
 * is about a hundred tokens): the judge of what a request with tools really carries.
 */
function wireToolTokens(tools: readonly ToolSpec[] | undefined): number {
	if (tools === undefined || tools.length === 0) return 0;
	let total = 100;
	for (const t of tools) total += estimateTokens(JSON.stringify({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
	return total;
}

const sessions = (): SessionManager => new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });

describe("tool definitions in the budget", () => {
	it("on a 4k window, every request's messages plus the six vault tools' definitions stay within the budget, in every round", async () => {
		const callArb = fc.record({ tool: fc.constantFrom("read_note", "search_notes", "list_notes", "get_active_note"), size: fc.constantFrom(10, 300, 1200, 4000) });
		const scenarioArb = fc.record({
			maxToolRounds: fc.integer({ min: 1, max: 4 }),
			note: fc.constantFrom(0, 200, 1500, 6000),
			turns: fc.array(fc.array(fc.array(callArb, { minLength: 1, maxLength: 2 }), { minLength: 0, maxLength: 5 }), { minLength: 1, maxLength: 3 }),
		});
		await fc.assert(
			fc.asyncProperty(scenarioArb, async (scenario) => {
				const settings: Partial<ChatSettings> = { maxPromptTokens: 4096, reservedResponseTokens: 512, maxToolRounds: scenario.maxToolRounds, systemPrompt: "Be brief." };
				const budget = compactionBudget(normalizeChatSettings(settings)).prompt;
				const sizes = new Map<string, number>();
				let seq = 0;
				let turn = 0;
				let step = 0;
				const adapter = new ScriptedToolAdapter(() => {
					const calls = scenario.turns[turn]?.[step++];
					if (calls === undefined) return { text: "Final answer." };
					const out: ScriptStep = {
						text: "Looking.",
						calls: calls.map((c): ToolCall => {
							const id = `c${++seq}`;
							sizes.set(id, c.size);
							return { id, name: c.tool, arguments: { path: `Notes/${id}.md`, query: "plan" } };
						}),
					};
					return out;
				});
				const tools = vaultTools((_name, args) => words(sizes.get(String(args.path).replace(/^Notes\/|\.md$/g, "")) ?? 5, "plan"));
				const chat = new ChatService({ adapter, sessions: sessions(), settings, tools, approve: () => Promise.resolve("allow") });
				for (let t = 0; t < scenario.turns.length; t++) {
					turn = t;
					step = 0;
					await chat.sendMessage(`Question ${t} about the plan`, { context: words(scenario.note, "note"), contextName: "Note" });
				}
				for (const r of adapter.chatRequests) {
					expect(promptCost(r.messages, estimateTokens) + wireToolTokens(r.tools)).toBeLessThanOrEqual(budget);
				}
			}),
			{ numRuns: 40 },
		);
	});

	it("the prompt event counts the definitions when tools are offered, and not when they are off", async () => {
		const tools = vaultTools(() => "ok");
		const estimates: number[] = [];
		const onEvent = (e: ChatEvent): void => {
			if (e.type === "prompt") estimates.push(e.estimatedTokens);
		};
		const answer = (): ScriptStep => ({ text: "Hello." });
		const settings = { maxPromptTokens: 4096, reservedResponseTokens: 512 };
		const withTools = new ChatService({ adapter: new ScriptedToolAdapter(answer), sessions: sessions(), settings, tools, model: "qwen2.5", onEvent });
		await withTools.sendMessage("Hi");
		const without = new ChatService({ adapter: new ScriptedToolAdapter(answer), sessions: sessions(), settings, tools, model: "qwen2.5", onEvent });
		await without.sendMessage("Hi", { tools: false });
		const specs = tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
		expect(estimates[0]! - estimates[1]!).toBe(chargedToolTokens(specs, "qwen2.5", estimateTokens));
		expect(estimates[0]! - estimates[1]!).toBeGreaterThanOrEqual(wireToolTokens(specs));
	});

	it("the meter's preview counts the definitions a send would carry, as the send does", async () => {
		const tools = vaultTools(() => "ok");
		const specs = tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
		let sent = 0;
		const chat = new ChatService({
			adapter: new ScriptedToolAdapter(() => ({ text: "Hello." })),
			sessions: sessions(),
			settings: { maxPromptTokens: 4096, reservedResponseTokens: 512 },
			tools,
			model: "qwen2.5",
			onEvent: (e) => {
				if (e.type === "prompt") sent = e.estimatedTokens;
			},
		});
		const withTools = chat.previewPrompt("Hi", { includeHistory: true });
		const without = chat.previewPrompt("Hi", { includeHistory: true, tools: false });
		expect(withTools.estimatedTokens - without.estimatedTokens).toBe(chargedToolTokens(specs, "qwen2.5", estimateTokens));
		await chat.sendMessage("Hi");
		expect(withTools.estimatedTokens).toBe(sent);
	});

	it("the last request of a turn whose rounds ran out goes without tools and is not charged for them", async () => {
		const tools = vaultTools(() => words(50, "plan"));
		const estimates: number[] = [];
		let n = 0;
		const adapter = new ScriptedToolAdapter(() => (n++ === 0 ? { text: "", calls: [{ id: "c1", name: "read_note", arguments: { path: "A.md" } }] } : { text: "Done." }));
		const chat = new ChatService({
			adapter,
			sessions: sessions(),
			settings: { maxPromptTokens: 4096, reservedResponseTokens: 512, maxToolRounds: 1 },
			tools,
			model: "qwen2.5",
			onEvent: (e) => {
				if (e.type === "prompt") estimates.push(e.estimatedTokens);
			},
		});
		await chat.sendMessage("Read A");
		const [first, last] = adapter.chatRequests;
		expect(first?.tools).toBeDefined();
		expect(last?.tools).toBeUndefined();
		// The meter's estimate of the last request is its messages alone.
		expect(estimates[1]).toBe(promptCost(last!.messages, estimateTokens));
	});
});

/**
 * A server that reports exact counts: the messages at `factor` times their raw estimate, and the
 * tool definitions as it renders them (`renderTools`), counted the same way, plus its fixed framing.
 */
class ExactServer implements LLMAdapter {
	readonly counts: { tools: boolean; counted: number }[] = [];

	constructor(
		private readonly factor: number,
		private readonly renderTools: (tools: readonly ToolSpec[]) => { text: string; fixed: number },
	) {}

	generate(req: GenerateRequest): Promise<GenerateResult> {
		let counted = promptCost(req.messages, estimateTokens) * this.factor;
		if (req.tools !== undefined && req.tools.length > 0) {
			const rendered = this.renderTools(req.tools);
			counted += estimateTokens(rendered.text) * this.factor + rendered.fixed;
		}
		this.counts.push({ tools: req.tools !== undefined, counted: Math.round(counted) });
		return Promise.resolve({ text: req.purpose === "summary" ? "Summary." : "A short answer.", usage: { promptTokens: Math.round(counted) } });
	}
}

/**
 * OpenAI's accounting of functions (its cookbook's token counting for tools): the texts of names,
 * descriptions, property names, types, descriptions and enum values, with 7 tokens per function,
 * 3 per property list, 3 per property, 3 per enum value less 3 per enum, and 12 per request.
 */
function openaiRendering(tools: readonly ToolSpec[]): { text: string; fixed: number } {
	const texts: string[] = [];
	let fixed = 12;
	for (const t of tools) {
		fixed += 7;
		texts.push(t.name, t.description);
		const props = Object.entries((t.parameters.properties ?? {}) as Record<string, { type?: string; description?: string; enum?: unknown[] }>);
		if (props.length > 0) fixed += 3;
		for (const [key, p] of props) {
			fixed += 3;
			texts.push(key, p.type ?? "", p.description ?? "");
			if (p.enum !== undefined) {
				fixed += 3 * p.enum.length - 3;
				texts.push(...p.enum.map(String));
			}
		}
	}
	return { text: texts.filter((x) => x !== "").join("\n"), fixed };
}

/** A chat template's (Qwen 2.5 in Ollama): an instruction block and each tool's JSON in a function wrapper. */
function templateRendering(tools: readonly ToolSpec[]): { text: string; fixed: number } {
	const json = tools.map((t) => JSON.stringify({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
	return { text: json.join("\n"), fixed: 100 };
}

/** Anthropic's: its tool-use system prompt (346 tokens for current models) and each tool's JSON. */
function anthropicRendering(tools: readonly ToolSpec[]): { text: string; fixed: number } {
	return { text: tools.map((t) => JSON.stringify({ name: t.name, description: t.description, input_schema: t.parameters })).join("\n"), fixed: 346 };
}

describe("calibration with tool definitions in the server's count", () => {
	const TRUE_FACTOR = 1.15;

	async function learnedFactor(model: string, render: (tools: readonly ToolSpec[]) => { text: string; fixed: number }): Promise<{ factor: number; toolless: { estimated: number; counted: number } }> {
		const server = new ExactServer(TRUE_FACTOR, render);
		const calibration = new TokenCalibration();
		let estimated = 0;
		const chat = new ChatService({
			adapter: server,
			sessions: sessions(),
			model,
			calibration,
			settings: { maxPromptTokens: 8192, reservedResponseTokens: 512 },
			tools: vaultTools(() => "ok"),
			onEvent: (e) => {
				if (e.type === "prompt") estimated = e.estimatedTokens;
			},
		});
		for (let turn = 0; turn < 8; turn++) await chat.sendMessage(`Question ${turn}: what does the plan say about the budget and the timeline?`);
		expect(server.counts.every((c) => c.tools)).toBe(true);
		const factor = calibration.factor(model);
		// A tool-less prompt (a slash command) afterwards: estimated with what was learned.
		await chat.sendMessage("Summarize our talk so far in one line.", { tools: false });
		const last = server.counts[server.counts.length - 1]!;
		expect(last.tools).toBe(false);
		return { factor, toolless: { estimated: estimated, counted: last.counted } };
	}

	it("a server that renders the definitions as OpenAI does: the factor stays the tokenizer's, and tool-less prompts are estimated closely", async () => {
		const { factor, toolless } = await learnedFactor("gpt-4o", openaiRendering);
		expect(factor).toBeGreaterThanOrEqual(TRUE_FACTOR * 0.99);
		expect(factor).toBeLessThanOrEqual(TRUE_FACTOR * 1.05);
		expect(toolless.estimated / toolless.counted).toBeLessThan(1.06);
	});

	it("a server that adds Anthropic's tool-use system prompt and each tool's JSON: the factor stays the tokenizer's", async () => {
		const { factor, toolless } = await learnedFactor("claude-sonnet-4-5", anthropicRendering);
		expect(factor).toBeGreaterThanOrEqual(TRUE_FACTOR * 0.99);
		expect(factor).toBeLessThanOrEqual(TRUE_FACTOR * 1.05);
		expect(toolless.estimated / toolless.counted).toBeLessThan(1.06);
	});

	it("a chat template whose instruction block the engine cannot know: the factor errs only on the safe side, by little", async () => {
		const { factor, toolless } = await learnedFactor("qwen2.5:7b", templateRendering);
		expect(factor).toBeGreaterThanOrEqual(TRUE_FACTOR * 0.99);
		expect(factor).toBeLessThanOrEqual(TRUE_FACTOR * 1.15);
		expect(toolless.estimated).toBeGreaterThanOrEqual(toolless.counted * 0.99);
	});
});
