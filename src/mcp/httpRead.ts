// Reading an HTTP body with a bound, for the MCP HTTP channel.
import { describeChars, McpError } from "./protocol";

/** The body as text, at most `maxChars`; over that, the rest is not read and `tooLarge` is thrown. */
export async function readBounded(response: Response, maxChars: number, tooLarge: (chars: number) => McpError): Promise<string> {
	const body = response.body;
	if (body === null) return "";
	const reader = body.getReader();
	const decoder = new TextDecoder("utf-8");
	const parts: string[] = [];
	let length = 0;
	try {
		for (;;) {
			const chunk = await reader.read();
			if (chunk.done) break;
			const text = decoder.decode(chunk.value, { stream: true });
			length += text.length;
			if (length > maxChars) throw tooLarge(length);
			parts.push(text);
		}
		parts.push(decoder.decode());
		return parts.join("");
	} finally {
		reader.cancel().catch(() => undefined);
	}
}

/** An error body's first words, for a message (64 KB read at most). */
export async function errorBody(response: Response): Promise<string> {
	try {
		const text = await readBounded(response, 64 * 1024, (n) => new McpError("http", `error body over ${describeChars(n)}`));
		return text.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim().slice(0, 300);
	} catch {
		return "";
	}
}

/** Discards a body without reading it. */
export function drop(response: Response): void {
	response.body?.cancel().catch(() => undefined);
}
