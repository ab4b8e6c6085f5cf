import type { Transport } from "../../src/providers/transport";

/** Wraps a transport to count the body bytes the client really read (for size-limit tests). */
export function countingTransport(transport: Transport): { transport: Transport; bytesRead: () => number } {
	let read = 0;
	const counted: Transport = async (url, init) => {
		const response = await transport(url, init);
		if (!response.body) return response;
		const body = response.body.pipeThrough(
			new TransformStream<Uint8Array, Uint8Array>({
				transform(chunk, controller) {
					read += chunk.byteLength;
					controller.enqueue(chunk);
				},
			}),
		);
		return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
	};
	return { transport: Object.assign(counted, { sendsNoOrigin: transport.sendsNoOrigin }), bytesRead: () => read };
}
