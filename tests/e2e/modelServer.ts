// The model server for the browser test: the providers' protocol server (tests/support) speaking
// Ollama's NDJSON, with answers queued by the test and paced to a token rate.
import { ProviderServer, type Scenario } from "../support/providerServer";
import { NDJSON_HEADERS, ollamaStream } from "../support/providerStreams";

export interface QueuedAnswer {
	tokens: string[];
	tokensPerSecond: number;
}

/** An answer that calls tools: optional text first, then the calls, each whole in one line (as Ollama sends them). */
export interface QueuedToolCalls {
	text?: string;
	calls: { name: string; arguments: Record<string, unknown> }[];
}

/** An HTTP failure with Ollama's error body. */
export interface QueuedFailure {
	status: number;
	error: string;
}

export interface ModelServer {
	kind: string;
	url: string;
	queue(answer: QueuedAnswer | QueuedFailure | QueuedToolCalls): void;
	/** The body of the last chat request, as JSON. */
	lastChatRequest(): unknown;
	/** Whether a client closed a connection mid-answer (Stop), waiting up to 2 s for it. */
	sawClientClose(): Promise<boolean>;
	close(): Promise<void>;
}

/** One NDJSON line per token, written `tokensPerSecond` lines a second. */
function paced(answer: QueuedAnswer): Scenario {
	const body = ollamaStream(answer.tokens, { promptTokens: 120, completionTokens: answer.tokens.length });
	const lineBytes = Math.max(1, Math.round(Buffer.byteLength(body) / (answer.tokens.length + 1)));
	return { headers: NDJSON_HEADERS, body, chunkMin: lineBytes, chunkMax: lineBytes, chunkDelayMs: 1000 / answer.tokensPerSecond };
}

/** Ollama's stream for a tool-calling answer: text lines, one line with the calls, then the end. */
function toolCallStream(answer: QueuedToolCalls): Scenario {
	const at = "2025-10-26T17:15:24.097767Z";
	const lines = [];
	if (answer.text) lines.push(JSON.stringify({ model: "e2e-model", created_at: at, message: { role: "assistant", content: answer.text }, done: false }));
	lines.push(JSON.stringify({ model: "e2e-model", created_at: at, message: { role: "assistant", content: "", tool_calls: answer.calls.map((c) => ({ function: { name: c.name, arguments: c.arguments } })) }, done: false }));
	lines.push(JSON.stringify({ model: "e2e-model", created_at: at, message: { role: "assistant", content: "" }, done_reason: "stop", done: true, prompt_eval_count: 120, eval_count: 10 }));
	return { headers: NDJSON_HEADERS, body: `${lines.join("\n")}\n`, chunkMin: 1 << 20, chunkMax: 1 << 20 };
}

export async function startModelServer(): Promise<ModelServer> {
	const server = await ProviderServer.start();
	const answers: (QueuedAnswer | QueuedFailure | QueuedToolCalls)[] = [];
	const json = (value: unknown): Scenario => ({ headers: { "content-type": "application/json" }, body: JSON.stringify(value), chunkMin: 1 << 20, chunkMax: 1 << 20 });
	server.route("GET", "/api/tags", json({ models: ["e2e-model", "llama3.2", "qwen3:8b"].map((name) => ({ name, model: name, size: 1, details: { family: "llama" } })) }));
	server.route("POST", "/api/show", json({ model_info: { "general.architecture": "llama", "llama.context_length": 8192 } }));
	server.route("GET", "/api/version", json({ version: "0.12.0" }));
	server.route("POST", "/api/chat", () => {
		const next = answers.shift() ?? { tokens: ["A short answer."], tokensPerSecond: 200 };
		if ("status" in next) return { ...json({ error: next.error }), status: next.status };
		if ("calls" in next) return toolCallStream(next);
		return paced(next);
	});
	return {
		kind: "tests/support/providerServer.ts",
		url: server.url,
		queue: (answer) => void answers.push(answer),
		sawClientClose: () => server.waitForClientClose(2000).then(
			() => true,
			() => false,
		),
		close: () => server.close(),
		lastChatRequest: () => server.requests.filter((r) => r.path === "/api/chat").at(-1)?.json,
	};
}
