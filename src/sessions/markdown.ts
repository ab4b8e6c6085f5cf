import { thoughtFor } from "./thoughtFor";
import type { ChatMessage, Session } from "../core/types";
import { exportSafeMarkdown } from "./remoteImages";

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

/**
 * A title as one line: line breaks, tabs and other control characters become spaces (a title with
 * a newline would otherwise write headings and front matter of its own), lone surrogates become
 * U+FFFD, runs of spaces one space.
 */
export function oneLineTitle(title: string): string {
	const line = title
		// eslint-disable-next-line no-control-regex -- control characters are what this removes
		.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ")
		.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
		.replace(/\s+/g, " ")
		.trim();
	return line === "" ? "Chat" : line;
}

/**
 * A double-quoted YAML scalar for any text. JSON's escapes are valid YAML, but JSON leaves some
 * characters raw that YAML does not allow unescaped (DEL, C1 controls, U+FEFF, U+FFFE/FFFF), so
 * those are escaped too.
 */
export function yamlString(value: string): string {
	return JSON.stringify(value).replace(/[\u007f-\u009f\ufeff\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** An Obsidian embed for a vault path; characters that would end the link are left out. */
export function imageEmbed(path: string): string {
	return `![[${path.replace(/[[\]|#^\r\n]/g, "")}]]`;
}

/** A heading's text: a trailing `#` would be read as the heading's closing sequence. */
function headingText(title: string): string {
	return title.replace(/#$/, "\\#");
}

/**
 * A session as a readable note: frontmatter, then the turns under "You" and "Assistant"
 * headings. The summary is left out: it is the model's memory, not part of the conversation;
 * so is thinking, unless `opts.includeThinking`. Remote images become plain links, so opening
 * the note loads nothing from the network.
 */
export function sessionToMarkdown(session: Session, opts: MarkdownExportOptions = {}): string {
	const turns = session.messages.filter((m) => m.role !== "system");
	const title = oneLineTitle(session.title);
	const front = [
		"---",
		`title: ${yamlString(title)}`,
		`created: ${yamlString(session.createdAt)}`,
		`updated: ${yamlString(session.updatedAt)}`,
		`messages: ${turns.length}`,
		"source: discover-chat",
		`session: ${yamlString(session.id)}`,
		"---",
		"",
	];
	const lines = [`# ${headingText(title)}`];
	for (const message of turns) {
		lines.push("", message.role === "user" ? "## You" : message.role === "tool" ? `## Tool result${message.name !== undefined ? `: ${headingText(oneLineTitle(message.name))}` : ""}` : "## Assistant", "");
		if (opts.includeThinking === true && message.role === "assistant") lines.push(...thinkingCallout(message));
		const body = message.content.trim();
		if (body !== "") lines.push(body);
		// Attached images are vault files: embedded, so the note shows them (never a remote URL).
		for (const image of message.attachments ?? []) lines.push("", imageEmbed(image.path));
		for (const call of message.toolCalls ?? []) lines.push("", `*Called ${call.name.replace(/[*`\\]/g, "")}*`);
		if (message.cancelled === true) lines.push("", "*(Stopped.)*");
		if (message.interrupted === true) lines.push("", "*(Interrupted: the app closed while this answer was written.)*");
		// The engine marks a failed turn on the person's message: it got no answer.
		const failure = message.role === "user" ? "No answer" : "This answer failed";
		if (message.error !== undefined) lines.push("", `> [!warning] ${failure}: ${message.error.replace(/\s+/g, " ")}`);
	}
	return front.join("\n") + exportSafeMarkdown(lines.join("\n")) + "\n";
}
