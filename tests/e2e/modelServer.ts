// The model server for the browser test: the providers' protocol server (tests/support) speaking
// Ollama's NDJSON, with answers queued by the test and paced to a token rate.
import { ProviderServer, type Scenario } from "../support/providerServer";
import { NDJSON_HEADERS, ollamaStream } from "../support/providerStreams";

export interface QueuedAnswer {
	tokens: string[];
	tokensPerSecond: number;
}

/** An HTTP failure with Ollama's error body. */
export interface QueuedFailure {
	status: number;
	error: string;
}

export interface ModelServer {
	kind: string;
	url: string;
	queue(answer: QueuedAnswer | QueuedFailure): void;
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

export async function startModelServer(): Promise<ModelServer> {
	const server = await ProviderServer.start();
	const answers: (QueuedAnswer | QueuedFailure)[] = [];
	const json = (value: unknown): Scenario => ({ headers: { "content-type": "application/json" }, body: JSON.stringify(value), chunkMin: 1 << 20, chunkMax: 1 << 20 });
	server.route("GET", "/api/tags", json({ models: ["e2e-model", "llama3.2", "qwen3:8b"].map((name) => ({ name, model: name, size: 1, details: { family: "llama" } })) }));
	server.route("POST", "/api/show", json({ model_info: { "general.architecture": "llama", "llama.context_length": 8192 } }));
	server.route("GET", "/api/version", json({ version: "0.12.0" }));
	server.route("POST", "/api/chat", () => {
		const next = answers.shift() ?? { tokens: ["A short answer."], tokensPerSecond: 200 };
		if ("status" in next) return { ...json({ error: next.error }), status: next.status };
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
