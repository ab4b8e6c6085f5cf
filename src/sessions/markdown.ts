import { thoughtFor } from "../chat/thoughtFor";
import type { ChatMessage, Session } from "../chat/types";

export interface MarkdownExportOptions {
	/** Put each answer's thinking above it, as a folded callout. Off by default: it is the model's scratch work. */
	includeThinking?: boolean;
}

/** The answer's thinking as a folded callout; every line quoted, so none of it can leave the callout. */
function thinkingCallout(message: ChatMessage): string[] {
	const thinking = message.thinking?.trim();
	if (thinking === undefined || thinking === "") return [];
	const lines = thinking.split(/\r\n|\r|\n/).map((line) => (line.trim() === "" ? ">" : `> ${line}`));
	return [`> [!note]- ${thoughtFor(message.thinkingMs)}`, ...lines, ""];
}

/** Double-quoted YAML scalar: JSON's escaping is valid YAML. */
function yamlString(value: string): string {
	return JSON.stringify(value);
}

/**
 * A session as a readable note: frontmatter, then the turns under "You" and "Assistant"
 * headings. The summary is left out: it is the model's memory, not part of the conversation;
 * so is thinking, unless `opts.includeThinking`.
 */
export function sessionToMarkdown(session: Session, opts: MarkdownExportOptions = {}): string {
	const turns = session.messages.filter((m) => m.role !== "system");
	const lines = [
		"---",
		`title: ${yamlString(session.title)}`,
		`created: ${session.createdAt}`,
		`updated: ${session.updatedAt}`,
		`messages: ${turns.length}`,
		"source: discover-chat",
		`session: ${session.id}`,
		"---",
		"",
		`# ${session.title}`,
	];
	for (const message of turns) {
		lines.push("", message.role === "user" ? "## You" : "## Assistant", "");
		if (opts.includeThinking === true && message.role === "assistant") lines.push(...thinkingCallout(message));
		const body = message.content.trim();
		if (body !== "") lines.push(body);
		if (message.cancelled === true) lines.push("", "*(Stopped.)*");
		if (message.interrupted === true) lines.push("", "*(Interrupted: the app closed while this answer was written.)*");
		// The engine marks a failed turn on the person's message: it got no answer.
		const failure = message.role === "user" ? "No answer" : "This answer failed";
		if (message.error !== undefined) lines.push("", `> [!warning] ${failure}: ${message.error.replace(/\s+/g, " ")}`);
	}
	return lines.join("\n") + "\n";
}
