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
