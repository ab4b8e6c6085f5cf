// The real engine against a real llama.cpp server: ChatService, the providers' own adapters, and
// either transport (fetch, or the Node http one the desktop app uses).
import { ChatService, type ChatServiceOptions } from "../../src/chat/ChatService";
import { TokenCalibration } from "../../src/chat/calibration";
import type { ChatSettings } from "../../src/core/types";
import { createAdapter, type ProviderName } from "../../src/providers";
import { fetchTransport, loadNodeTransport, type Transport, type TransportInit } from "../../src/providers/transport";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { sleep } from "../support/chatHarness";

export const MODEL = "tiny-chat-qwen2tok";

export const TRANSPORTS: { name: string; load: () => Promise<Transport> }[] = [
	{ name: "fetch", load: () => Promise.resolve(fetchTransport) },
	{ name: "node", load: loadNodeTransport },
];

/** The server's count endpoints: OpenAI-compatible and Anthropic dialects. */
export const COUNT_PATH = /\/(input_tokens|count_tokens)$/;

/** A transport that records each request's address and response's status, and adds fields (a seed) to every JSON body. */
export function recording(transport: Transport, extra: Record<string, unknown> = {}): Transport & { statuses: number[]; bodies: unknown[]; urls: string[]; counts: { tokens: number; ms: number }[] } {
	const statuses: number[] = [];
	const bodies: unknown[] = [];
	const urls: string[] = [];
	const counts: { tokens: number; ms: number }[] = [];
	const wrapped = async (url: string, init: TransportInit): Promise<Response> => {
		let body = init.body;
		if (typeof body === "string" && Object.keys(extra).length > 0) body = JSON.stringify({ ...(JSON.parse(body) as object), ...extra });
		if (typeof body === "string") bodies.push(JSON.parse(body));
		urls.push(url);
		const sentAt = Date.now();
		const res = await transport(url, { ...init, body });
		statuses.push(res.status);
		// A count's answer (llama.cpp's /input_tokens, /count_tokens): its number and how long it took.
		if (COUNT_PATH.test(url) && res.ok) counts.push({ tokens: ((await res.clone().json()) as { input_tokens: number }).input_tokens, ms: Date.now() - sentAt });
		return res;
	};
	return Object.assign(wrapped, { statuses, bodies, urls, counts, sendsNoOrigin: transport.sendsNoOrigin });
}

export interface RealChat {
	chat: ChatService;
	store: MemoryFileStore;
	sessions: SessionManager;
	calibration: TokenCalibration;
}

/** A chat with `provider`'s adapter against the server at `url` (no path). */
export function realChat(url: string, transport: Transport, settings: Partial<ChatSettings>, opts: Partial<ChatServiceOptions> & { provider?: ProviderName; calibration?: TokenCalibration } = {}): RealChat {
	const provider = opts.provider ?? "openai";
	const store = new MemoryFileStore();
	const sessions = new SessionManager(store, { onWarning: () => undefined });
	const calibration = opts.calibration ?? new TokenCalibration();
	const baseUrl = provider === "openai" ? `${url}/v1` : url;
	const chat = new ChatService({
		...opts,
		adapter: createAdapter({ provider, baseUrl, model: MODEL, transport }),
		sessions,
		settings,
		model: MODEL,
		calibration,
	});
	return { chat, store, sessions, calibration };
}

interface Slot {
	id: number;
	is_processing?: boolean;
}

/** Resolves with the ms it took the server's slots to go idle; rejects after `limitMs`. */
export async function slotsIdleWithin(url: string, limitMs: number): Promise<number> {
	const started = Date.now();
	for (;;) {
		const res = await fetchTransport(`${url}/slots`, { method: "GET", headers: {}, signal: AbortSignal.timeout(limitMs) });
		const slots = (await res.json()) as Slot[];
		if (!Array.isArray(slots) || slots.length === 0) throw new Error(`/slots answered ${JSON.stringify(slots)}`);
		if (slots.every((s) => s.is_processing === false)) return Date.now() - started;
		if (Date.now() - started > limitMs) throw new Error(`a slot was still processing after ${limitMs} ms: ${JSON.stringify(slots)}`);
		await sleep(20);
	}
}

/** The server's own count of a text (llama.cpp's /tokenize). */
export async function serverTokens(url: string, text: string): Promise<number> {
	const res = await fetchTransport(`${url}/tokenize`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ content: text }), signal: AbortSignal.timeout(10_000) });
	const body = (await res.json()) as { tokens: unknown[] };
	return body.tokens.length;
}

/** A figure for the closing note, printed where the run's log shows it. */
export function figure(name: string, value: unknown): void {
	process.stdout.write(`[test:real figure] ${name}: ${typeof value === "string" ? value : JSON.stringify(value)}\n`);
}
