/**
 * How much a server may send. Each limit is far above what a working server sends and low enough
 * that a broken or hostile one (an endless body, an endless stream) cannot exhaust memory.
 */

/** Error bodies and short JSON replies: what a real one holds fits many times over. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Model lists and model details: OpenRouter's list is about a megabyte, and Ollama's `/api/show`
 * carries the license twice and the tensor table. Still bounded.
 */
export const MAX_METADATA_BYTES = 4 * 1024 * 1024;

/** The most characters of answer (text and thinking together) whatever the request asked for. */
export const MAX_ANSWER_CHARS = 4 * 1024 * 1024;

/**
 * An answer may hold 64 times the text its `maxTokens` is worth (about 4 characters a token)
 * before it counts as a runaway: a server that honours `max_tokens` never comes near it.
 */
const ANSWER_SLACK = 64;
const CHARS_PER_TOKEN = 4;

export function answerCharLimit(maxTokens: number): number {
	return Math.min(MAX_ANSWER_CHARS, Math.max(1, Math.floor(maxTokens)) * CHARS_PER_TOKEN * ANSWER_SLACK);
}

export function describeSize(bytes: number): string {
	return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;
}

/**
 * Reads at most `maxBytes` of a body as text, then cancels the rest (which closes the connection).
 * `race` settles early when the caller stops or a time limit passes.
 */
export async function readLimitedText(response: Response, maxBytes: number, race: <T>(p: Promise<T>) => Promise<T>): Promise<string> {
	const body = response.body;
	if (!body) return "";
	const reader = body.getReader();
	const decoder = new TextDecoder("utf-8");
	let text = "";
	let received = 0;
	try {
		while (received < maxBytes) {
			const chunk = await race(reader.read());
			if (chunk.done) return text + decoder.decode();
			const room = maxBytes - received;
			const bytes = chunk.value.byteLength > room ? chunk.value.subarray(0, room) : chunk.value;
			received += bytes.byteLength;
			text += decoder.decode(bytes, { stream: true });
		}
		return text;
	} finally {
		reader.cancel().catch(() => undefined);
	}
}
