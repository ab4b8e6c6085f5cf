// Tool-call streams in each dialect's wire format, built from the same shapes as the recordings in
// tests/fixtures/providers/tools/: text, thinking, calls whose argument text arrives in fragments.
import { NDJSON_HEADERS, SSE_HEADERS, type Dialect } from "./providerStreams";

export interface StreamedCall {
	id?: string;
	name: string;
	/** The argument text as the model writes it (JSON, or not, for the malformed cases). */
	args: string;
}

export interface ToolStreamOptions {
	text?: string[];
	thinking?: string[];
	calls: StreamedCall[];
	/** Characters per argument fragment (OpenAI, Anthropic). Default 3. */
	fragment?: number;
	/** OpenAI: the finish reason (llama.cpp, LM Studio and some vLLM versions say "stop"). */
	finishReason?: string;
	/** OpenAI: every call at index 0, told apart only by its id (some servers do this). */
	sameIndex?: boolean;
	/** Ollama: arguments as a JSON string instead of an object (some compatible servers). */
	argsAsString?: boolean;
}

function pieces(text: string, size: number): string[] {
	const out: string[] = [];
	for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
	return out.length > 0 ? out : [""];
}

function ollama(opts: ToolStreamOptions): string {
	const at = "2025-07-07T20:22:19.184789Z";
	const lines: unknown[] = [];
	for (const t of opts.thinking ?? []) lines.push({ model: "llama3.2", created_at: at, message: { role: "assistant", content: "", thinking: t }, done: false });
	for (const t of opts.text ?? []) lines.push({ model: "llama3.2", created_at: at, message: { role: "assistant", content: t }, done: false });
	for (const c of opts.calls) {
		// Each call whole on its own line, all at index 0, as some compatible servers send them.
		const args: unknown = opts.argsAsString ? c.args : c.args.trim() === "" ? {} : (JSON.parse(c.args) as unknown);
		const call: Record<string, unknown> = { function: { index: 0, name: c.name, arguments: args } };
		if (c.id !== undefined) call.id = c.id;
		lines.push({ model: "llama3.2", created_at: at, message: { role: "assistant", content: "", tool_calls: [call] }, done: false });
	}
	lines.push({ model: "llama3.2", created_at: at, message: { role: "assistant", content: "" }, done_reason: "stop", done: true, prompt_eval_count: 20, eval_count: 5 });
	return lines.map((l) => `${JSON.stringify(l)}\n`).join("");
}

function openai(opts: ToolStreamOptions): string {
	const base = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1727346178, model: "m" };
	const chunk = (delta: unknown, finish: string | null = null): unknown => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
	const events: unknown[] = [chunk({ role: "assistant", content: null })];
	for (const t of opts.thinking ?? []) events.push(chunk({ reasoning_content: t }));
	for (const t of opts.text ?? []) events.push(chunk({ content: t }));
	opts.calls.forEach((c, i) => {
		const index = opts.sameIndex ? 0 : i;
		const head: Record<string, unknown> = { index, type: "function", function: { name: c.name, arguments: "" } };
		if (c.id !== undefined) head.id = c.id;
		events.push(chunk({ tool_calls: [head] }));
		for (const p of pieces(c.args, opts.fragment ?? 3)) events.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
	});
	events.push(chunk({}, opts.finishReason ?? "tool_calls"));
	events.push({ ...base, choices: [], usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 } });
	return events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") + "data: [DONE]\n\n";
}

function sse(name: string, data: unknown): string {
	return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

function anthropic(opts: ToolStreamOptions): string {
	let out = sse("message_start", { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [], model: "claude-test", usage: { input_tokens: 20, output_tokens: 1 } } });
	let index = 0;
	if (opts.thinking) {
		out += sse("content_block_start", { type: "content_block_start", index, content_block: { type: "thinking", thinking: "" } });
		for (const t of opts.thinking) out += sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: t } });
		out += sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "signature_delta", signature: "c2ln" } });
		out += sse("content_block_stop", { type: "content_block_stop", index });
		index++;
	}
	if (opts.text) {
		out += sse("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
		for (const t of opts.text) out += sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: t } });
		out += sse("content_block_stop", { type: "content_block_stop", index });
		index++;
	}
	for (const c of opts.calls) {
		out += sse("content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: c.id ?? `toolu_${index}`, name: c.name, input: {} } });
		for (const p of pieces(c.args, opts.fragment ?? 3)) out += sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: p } });
		out += sse("content_block_stop", { type: "content_block_stop", index });
		index++;
	}
	out += sse("message_delta", { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 5 } });
	return out + sse("message_stop", { type: "message_stop" });
}

export function toolCallStream(dialect: Dialect, opts: ToolStreamOptions): string {
	switch (dialect) {
		case "ollama":
			return ollama(opts);
		case "openai":
			return openai(opts);
		case "anthropic":
			return anthropic(opts);
	}
}

export function toolHeaders(dialect: Dialect): Record<string, string> {
	return dialect === "ollama" ? NDJSON_HEADERS : SSE_HEADERS;
}

/** One argument fragment of `text`, repeated for ever: a server that never ends a call's arguments. */
export function endlessArguments(dialect: Dialect, text: string): { opening: string; repeat: string } {
	switch (dialect) {
		case "ollama":
			// Ollama sends calls whole; its endless case is a call whose arguments never stop in one line.
			return { opening: `{"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":{"a":"`, repeat: text };
		case "openai":
			return {
				opening: `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "f", arguments: '{"a":"' } }] }, finish_reason: null }] })}\n\n`,
				repeat: `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: text } }] }, finish_reason: null }] })}\n\n`,
			};
		case "anthropic":
			return {
				opening:
					sse("message_start", { type: "message_start", message: { id: "m", type: "message", role: "assistant", content: [], usage: { input_tokens: 1 } } }) +
					sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "f", input: {} } }),
				repeat: sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: text } }),
			};
	}
}
