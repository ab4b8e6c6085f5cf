// What a tool call asks for, in the person's words ("Edit Projects/Plan.md", "Read Inbox/Idea.md"),
// for the permission prompt. The arguments come from the model, so they are untrusted: they only
// ever become text (never HTML or Markdown), and characters that could hide or reorder what is
// shown (control and bidirectional formatting characters) are made visible first.
import type { McpToolOrigin, ToolCall } from "../../core/types";
import type { ToolPreview } from "../../tools/types";
import { t } from "../../i18n";

/** A value shown inside a one-line title is cut here; the whole value is in the details. */
const TITLE_VALUE_CHARS = 120;

/**
 * C0/C1 controls (tabs and newlines included: a title is one line) and the bidirectional marks,
 * embeddings, overrides and isolates that can make "gpj.exe" read as "exe.jpg".
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const HIDDEN_CHARS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const codeOf = (c: string): string => `\\u{${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}}`;

/** `text` with every hidden or reordering character written as a visible \u{…} code. */
export function visibleText(text: string): string {
	return text.replace(HIDDEN_CHARS, codeOf);
}

/** A model-given value for a one-line title: visible characters only, and not longer than a line should be. */
export function titleValue(value: unknown): string {
	const text = visibleText(typeof value === "string" ? value : JSON.stringify(value) ?? "");
	const chars = Array.from(text);
	return chars.length > TITLE_VALUE_CHARS ? `${chars.slice(0, TITLE_VALUE_CHARS - 1).join("")}…` : text;
}

const given = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";

/**
 * One line saying what the model wants to do. A write's preview names the note the tool resolved,
 * which is what would really change, so it is preferred over the raw argument.
 */
export function describeToolCall(call: ToolCall, tool: { name: string; access: "read" | "write"; mcp?: McpToolOrigin }, preview?: ToolPreview): string {
	// An MCP tool's arguments name nothing in the vault: its title never reads like a note's change.
	if (tool.mcp !== undefined) return t("toolCard.mcpRun", { tool: titleValue(tool.mcp.title ?? tool.mcp.tool), server: titleValue(tool.mcp.server) });
	const args = call.arguments;
	const path = preview?.path ?? args.path;
	switch (tool.name) {
		case "read_note":
			if (given(path)) return t("permission.titleRead", { path: titleValue(path) });
			break;
		case "get_active_note":
			return t("permission.titleReadActive");
		case "search_notes":
			if (given(args.query)) return t("permission.titleSearch", { query: titleValue(args.query) });
			break;
		case "list_notes":
			if (given(args.tag)) return t("permission.titleListTag", { tag: titleValue(args.tag.replace(/^#/, "")) });
			if (given(args.folder) && args.folder.trim() !== "/") return t("permission.titleListFolder", { folder: titleValue(args.folder) });
			return args.recent === true ? t("permission.titleListRecent") : t("permission.titleListAll");
		case "create_note":
			if (given(path)) return t("permission.titleCreate", { path: titleValue(path) });
			break;
		case "edit_note":
			if (given(path)) return t("permission.titleEdit", { path: titleValue(path) });
			break;
	}
	// Another tool, or a call missing what would name its target: say which tool, and whether it writes.
	if (tool.access === "write") return given(path) ? t("permission.titleChange", { path: titleValue(path) }) : t("permission.titleOtherWrite", { tool: titleValue(tool.name) });
	return t("permission.titleOther", { tool: titleValue(tool.name) });
}

/**
 * The call's arguments, one entry each, for the folded details: text as written (its line breaks
 * and tabs kept, so a note's content reads as a note), anything else as JSON; hidden characters
 * made visible either way.
 */
export function argumentEntries(args: Record<string, unknown>): { name: string; value: string }[] {
	return Object.entries(args).map(([name, value]) => {
		let text: string;
		if (typeof value === "string") text = value;
		else {
			try {
				text = JSON.stringify(value, null, 2) ?? String(value);
			} catch {
				text = String(value);
			}
		}
		return { name: visibleText(name), value: text.replace(/\r\n/g, "\n").replace(HIDDEN_CHARS, (c) => (c === "\n" || c === "\t" ? c : codeOf(c))) };
	});
}

/** A scope's folder as the person reads it: "Notes/", or the note itself at the vault's root. */
export function scopeFolderName(folder: string): string {
	return /\.md$/i.test(folder) ? titleValue(folder) : `${titleValue(folder)}/`;
}

/** An agent note's path as its name ("Discover/Agents/Writer.md" → "Writer"). */
export function agentName(path: string): string {
	return titleValue(path.replace(/^.*\//, "").replace(/\.md$/i, ""));
}
