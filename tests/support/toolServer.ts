// A model on the local protocol server that plays a script of answers, one per chat request, in a
// dialect's wire format: tool calls (toolStreams.ts) or a final text answer. For tests of the
// panel's engine (createChatRuntime) driving the vault tools through a real adapter.
import type { ProviderServer, RecordedRequest } from "./providerServer";
import { CHAT_PATHS, type Dialect } from "./providerStreams";
import { toolCallStream, toolHeaders, type StreamedCall } from "./toolStreams";

/** A final answer (no calls) in the dialect's stream format. */
export function answerStream(dialect: Dialect, text: string): string {
	switch (dialect) {
		case "ollama":
			return `${JSON.stringify({ model: "m", message: { role: "assistant", content: text }, done: false })}\n${JSON.stringify({ model: "m", message: { role: "assistant", content: "" }, done: true, done_reason: "stop", prompt_eval_count: 20, eval_count: 2 })}\n`;
		case "openai":
			return `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\ndata: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`;
		case "anthropic":
			return [
				`event: message_start\ndata: ${JSON.stringify({ type: "message_start", message: { id: "m", type: "message", role: "assistant", content: [], usage: { input_tokens: 20, output_tokens: 1 } } })}\n\n`,
				`event: content_block_start\ndata: ${JSON.stringify({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } })}\n\n`,
				`event: content_block_delta\ndata: ${JSON.stringify({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })}\n\n`,
				`event: content_block_stop\ndata: ${JSON.stringify({ type: "content_block_stop", index: 0 })}\n\n`,
				`event: message_delta\ndata: ${JSON.stringify({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } })}\n\n`,
				`event: message_stop\ndata: ${JSON.stringify({ type: "message_stop" })}\n\n`,
			].join("");
	}
}

/**
 * The server plays `steps` in order, one per chat request (the last one again after the end):
 * calls, or a final answer's text. Returns the chat requests it got, for what was sent back.
 */
export function serveToolSteps(server: ProviderServer, dialect: Dialect, steps: (StreamedCall[] | string)[]): () => RecordedRequest[] {
	server.reset();
	let i = 0;
	server.route("POST", CHAT_PATHS[dialect], () => {
		const step = steps[Math.min(i++, steps.length - 1)] ?? "Done.";
		return typeof step === "string" ? { headers: toolHeaders(dialect), body: answerStream(dialect, step) } : { headers: toolHeaders(dialect), body: toolCallStream(dialect, { calls: step }) };
	});
	server.route("POST", "/api/show", { status: 404, body: "{}" });
	return () => server.requests.filter((r) => r.path === CHAT_PATHS[dialect]);
}
