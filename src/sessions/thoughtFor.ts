/** The label of a thinking block: how long the model thought ("Thought for 12 s"), when known. */
export function thoughtFor(ms: number | undefined): string {
	if (ms === undefined || !Number.isFinite(ms) || ms < 0) return "Thinking";
	// Under a second reads as a second: "0 s" would look like nothing happened.
	const total = Math.max(1, Math.round(ms / 1000));
	if (total < 60) return `Thought for ${total} s`;
	const minutes = Math.floor(total / 60);
	const seconds = total % 60;
	return seconds === 0 ? `Thought for ${minutes} min` : `Thought for ${minutes} min ${seconds} s`;
}
