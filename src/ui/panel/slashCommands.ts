// One-shot commands typed as "/name": they send a fixed request about the note and deliberately
// leave the conversation history out, so the answer is about the note alone.

export interface SlashCommand {
	name: string;
	description: string;
	/** The request sent to the model. */
	prompt: string;
	/** The command is about a note: it needs one open. */
	needsNote: boolean;
}

export const SLASH_COMMANDS: readonly SlashCommand[] = [
	{ name: "summarize", description: "Summarize the active note", prompt: "Summarize this note.", needsNote: true },
	{ name: "outline", description: "List the key points of the active note", prompt: "List the key points of this note as a short outline.", needsNote: true },
	{ name: "questions", description: "Questions the active note leaves open", prompt: "What questions does this note leave open?", needsNote: true },
];

/** Commands offered for the input's text, or [] when the text is not a command being typed. */
export function matchSlashCommands(input: string, commands: readonly SlashCommand[] = SLASH_COMMANDS): SlashCommand[] {
	const match = /^\/(\S*)$/.exec(input.trimStart());
	if (!match) return [];
	const typed = (match[1] ?? "").toLowerCase();
	return commands.filter((c) => c.name.startsWith(typed));
}
