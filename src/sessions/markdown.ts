import type { Session } from "../chat/types";

/** Double-quoted YAML scalar: JSON's escaping is valid YAML. */
function yamlString(value: string): string {
	return JSON.stringify(value);
}

/**
 * A session as a readable note: frontmatter, then the turns under "You" and "Assistant"
 * headings. The summary is left out: it is the model's memory, not part of the conversation.
 */
export function sessionToMarkdown(session: Session): string {
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
		const body = message.content.trim();
		if (body !== "") lines.push(body);
		if (message.cancelled === true) lines.push("", "*(Stopped.)*");
		// The engine marks a failed turn on the person's message: it got no answer.
		const failure = message.role === "user" ? "No answer" : "This answer failed";
		if (message.error !== undefined) lines.push("", `> [!warning] ${failure}: ${message.error.replace(/\s+/g, " ")}`);
	}
	return lines.join("\n") + "\n";
}
