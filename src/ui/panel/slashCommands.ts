// One-shot commands typed as "/name": they send a fixed request about the note and deliberately
// leave the conversation history out, so the answer is about the note alone.

import { t, type PlainKey } from "../../i18n";

export interface SlashCommand {
	name: string;
	description: string;
	/** The request sent to the model. */
	prompt: string;
	/** The command is about a note: it needs one open. */
	needsNote: boolean;
}

/** A command whose description and prompt are read when shown or sent, in the language set at load. */
function command(name: string, description: PlainKey, prompt: PlainKey): SlashCommand {
	return {
		name,
		get description() {
			return t(description);
		},
		get prompt() {
			return t(prompt);
		},
		needsNote: true,
	};
}

// The prompts are the person's words, so they are in the person's language: the model answers in it.
export const SLASH_COMMANDS: readonly SlashCommand[] = [
	command("summarize", "slash.summarize.description", "slash.summarize.prompt"),
	command("outline", "slash.outline.description", "slash.outline.prompt"),
	command("questions", "slash.questions.description", "slash.questions.prompt"),
];

/** Commands offered for the input's text, or [] when the text is not a command being typed. */
export function matchSlashCommands(input: string, commands: readonly SlashCommand[] = SLASH_COMMANDS): SlashCommand[] {
	const match = /^\/(\S*)$/.exec(input.trimStart());
	if (!match) return [];
	const typed = (match[1] ?? "").toLowerCase();
	return commands.filter((c) => c.name.startsWith(typed));
}
