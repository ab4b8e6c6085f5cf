import type { NoticeParams } from "../core/notices";

const REDACTED = "[redacted]";
/** Shortest run of key characters treated as a leak: servers echo keys partly ("sk-abc…xyz"). */
const MIN_LEAK = 8;

/**
 * Removes an API key, and any run of 8+ characters of it, from text that may reach the person, a
 * log or a saved session.
 */
export function redactSecret(text: string, secret: string | undefined): string {
	if (!secret || secret.length < 4) return text;
	let out = text.split(secret).join(REDACTED);
	if (secret.length < MIN_LEAK) return out;
	for (let i = 0; i + MIN_LEAK <= secret.length; i++) {
		const piece = secret.slice(i, i + MIN_LEAK);
		if (!out.includes(piece)) continue;
		// Replace the whole word holding the piece, so no tail of the key survives either.
		out = out
			.split(/(\s+)/)
			.map((word) => (word.includes(piece) ? REDACTED : word))
			.join("");
	}
	return out;
}

/** Parameters with the key taken out of every text value; the same object when none held it. */
export function redactParams(params: NoticeParams | undefined, apiKey: string | undefined): NoticeParams | undefined {
	if (params === undefined) return undefined;
	let changed = false;
	const out: Record<string, string | number> = {};
	for (const [name, value] of Object.entries(params)) {
		const clean = typeof value === "string" ? redactSecret(value, apiKey) : value;
		if (clean !== value) changed = true;
		out[name] = clean;
	}
	return changed ? out : params;
}
