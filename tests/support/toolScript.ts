// A model that follows a script of tool calls, and tools that record how they were run: the stub
// side of the tool loop's tests, property tests, headless scenario and bench.
import { LLMError } from "../../src/providers/errors";
import { digestSummary } from "./stubAdapter";
import type { GenerateRequest, GenerateResult, LLMAdapter, PromptMessage, Tool, ToolCall, ToolSpec } from "../../src/core/types";

/** One chat answer of the script: text, and calls (none: a final answer); or an error; or it hangs until stopped. */
export interface ScriptStep {
	text?: string;
	calls?: ToolCall[];
	error?: LLMError;
	hang?: boolean;
}

export interface RecordedToolRequest {
	purpose: GenerateRequest["purpose"];
	messages: PromptMessage[];
	tools: ToolSpec[] | undefined;
	maxTokens: number;
}

const abortError = (): LLMError => new LLMError("aborted", "The request was stopped.");

/** Chat answers come from `script(request, chatIndex)`; summaries are a deterministic digest. */
export class ScriptedToolAdapter implements LLMAdapter {
	readonly requests: RecordedToolRequest[] = [];
	private chatCount = 0;

	constructor(private readonly script: (req: GenerateRequest, index: number) => ScriptStep) {}

	get chatRequests(): RecordedToolRequest[] {
		return this.requests.filter((r) => r.purpose === "chat");
	}

	async generate(req: GenerateRequest): Promise<GenerateResult> {
		this.requests.push({ purpose: req.purpose, messages: req.messages.map((m) => structuredClone(m)), tools: req.tools?.map((t) => ({ ...t })), maxTokens: req.maxTokens });
		if (req.signal?.aborted === true) throw abortError();
		if (req.purpose === "summary") return { text: digestSummary(req) };
		const step = this.script(req, this.chatCount++);
		if (step.error !== undefined) throw step.error;
		const text = step.text ?? "";
		if (text !== "") req.onToken?.(text);
		if (step.hang === true) {
			await new Promise<void>((resolve) => {
				if (req.signal === undefined || req.signal.aborted) return resolve();
				req.signal.addEventListener("abort", () => resolve(), { once: true });
			});
			throw abortError();
		}
		const calls = step.calls ?? [];
		calls.forEach((call, index) => {
			const json = JSON.stringify(call.arguments);
			req.onToolCall?.({ phase: "start", index, id: call.id, name: call.name, argumentsText: "" });
			req.onToolCall?.({ phase: "arguments", index, id: call.id, name: call.name, argumentsText: json, delta: json });
			req.onToolCall?.({ phase: "end", index, id: call.id, name: call.name, argumentsText: json });
		});
		return calls.length > 0 ? { text, toolCalls: calls } : { text };
	}
}

/** A tool that returns `result(args)` (or throws it when it is an Error), recording its runs. */
export function recordingTool(name: string, access: "read" | "write", result: (args: Record<string, unknown>) => string | Error = () => `${name} result`): Tool & { runs: Record<string, unknown>[] } {
	const runs: Record<string, unknown>[] = [];
	return {
		name,
		description: `The ${name} tool.`,
		parameters: { type: "object", properties: { path: { type: "string" } } },
		access,
		runs,
		run(args) {
			runs.push(args);
			const out = result(args);
			return out instanceof Error ? Promise.reject(out) : Promise.resolve(out);
		},
	};
}

/** The engine's call ids, deterministic: own_1, own_2, … (ChatServiceOptions.callIds). */
export function ownIds(prefix = "own"): () => string {
	let n = 0;
	return () => `${prefix}_${++n}`;
}

let callSeq = 0;
export function call(name: string, args: Record<string, unknown> = {}, extra: Partial<ToolCall> = {}): ToolCall {
	return { id: `call_${++callSeq}`, name, arguments: args, ...extra };
}

/** Timers the test fires by hand: `fire(ms)` runs the pending callbacks set for `ms`. */
export function manualTimers(): { set: (fn: () => void, ms: number) => number; clear: (h: unknown) => void; pending: Map<number, { fn: () => void; ms: number }>; fire: (ms: number) => void } {
	const pending = new Map<number, { fn: () => void; ms: number }>();
	let next = 0;
	return {
		pending,
		set: (fn, ms) => {
			pending.set(++next, { fn, ms });
			return next;
		},
		clear: (h) => {
			pending.delete(h as number);
		},
		fire: (ms) => {
			for (const [h, t] of [...pending]) {
				if (t.ms !== ms) continue;
				pending.delete(h);
				t.fn();
			}
		},
	};
}
