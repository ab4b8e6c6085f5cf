// Splits Markdown into top-level blocks at blank lines, so a streaming answer re-renders only its
// last, growing block. Never splits inside a code fence or before an indented continuation (a list
// item's second paragraph), where rendering the parts apart would change the result.

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function splitMarkdownBlocks(markdown: string): string[] {
	const lines = markdown.split("\n");
	const blocks: string[] = [];
	let current: string[] = [];
	let fence: string | undefined;
	let blankRun = 0;
	for (const line of lines) {
		const isBlank = line.trim() === "";
		if (fence === undefined && isBlank) {
			blankRun++;
			current.push(line);
			continue;
		}
		const indented = /^[ \t]/.test(line);
		if (fence === undefined && blankRun > 0 && !indented && current.some((l) => l.trim() !== "")) {
			blocks.push(current.slice(0, current.length - blankRun).join("\n"));
			current = [];
		}
		blankRun = 0;
		const marker = FENCE.exec(line)?.[1];
		if (marker !== undefined) {
			if (fence === undefined) fence = marker;
			else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
		}
		current.push(line);
	}
	blocks.push(current.join("\n"));
	return blocks;
}
