// A transport that answers from memory, chunk by chunk: drives the real request pump and decoders
// with exact byte boundaries (the network may merge chunks; this never does).
import type { Transport, TransportInit } from "../../src/providers/transport";

export interface MemoryReply {
	status?: number;
	headers?: Record<string, string>;
	chunks: Uint8Array[];
}

export interface MemoryTransport extends Transport {
	calls: { url: string; init: TransportInit }[];
}

export function memoryTransport(reply: MemoryReply | ((url: string, init: TransportInit) => MemoryReply)): MemoryTransport {
	const calls: { url: string; init: TransportInit }[] = [];
	const transport = (url: string, init: TransportInit): Promise<Response> => {
		calls.push({ url, init });
		const r = typeof reply === "function" ? reply(url, init) : reply;
		let i = 0;
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				const chunk = r.chunks[i++];
				if (chunk) controller.enqueue(chunk);
				else controller.close();
			},
		});
		return Promise.resolve(new Response(body, { status: r.status ?? 200, headers: r.headers }));
	};
	return Object.assign(transport, { calls });
}

/** Splits `bytes` at the given cut points (sorted, deduplicated, in range). */
export function splitAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
	const points = [...new Set(cuts.filter((c) => c > 0 && c < bytes.length))].sort((a, b) => a - b);
	const out: Uint8Array[] = [];
	let start = 0;
	for (const p of points) {
		out.push(bytes.subarray(start, p));
		start = p;
	}
	out.push(bytes.subarray(start));
	return out;
}
