// What the model is asked for an inline edit, and what is taken from its answer. The selection goes
// whole between markers the model is told to rewrite; the answer is the replacement text only. Models
// often wrap it in a code fence or repeat the markers anyway: those are taken off, nothing else.

export const EDIT_RULES = [
	"You edit a stretch of the person's note. Rewrite the text between <selection> and </selection> as the instruction says.",
	"Answer with the replacement text only: no explanation, no quotes, no code fence around it, no markers.",
	"Keep the note's Markdown, links ([[...]]), line breaks and language unless the instruction asks otherwise.",
	"When the selection is empty, write what the instruction asks for at that point of the note.",
	"The note around the selection comes as a source, with <selection/> where the selection is: use it for context, never rewrite it.",
].join("\n");

/** The user message of an edit: the instruction, then the selection whole between its markers. */
export function editMessage(instruction: string, selection: string, path: string): string {
	return `Instruction: ${instruction.trim()}\n\nNote: ${path}\n\n<selection>\n${selection}\n</selection>`;
}

/**
 * The replacement in a model's answer: a fence or the selection markers around the whole answer are
 * taken off; the selection's own final line break is kept as the selection had it.
 */
export function proposalFrom(answer: string, selection: string): string {
	let text = answer.replace(/^\s*\n/, "");
	const fenced = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n?\1\s*$/.exec(text.trim());
	if (fenced && !selection.trimStart().startsWith(fenced[1] ?? "```")) text = fenced[2] ?? "";
	const marked = /^\s*<selection>\n?([\s\S]*?)\n?<\/selection>\s*$/.exec(text);
	if (marked) text = marked[1] ?? "";
	const endsWithBreak = selection.endsWith("\n");
	text = text.replace(/\s+$/, (ws) => (ws.includes("\n") && endsWithBreak ? "\n" : ws.replace(/\n/g, "")));
	if (endsWithBreak && !text.endsWith("\n") && text !== "") text += "\n";
	return text;
}
