// A tool card's title in the person's words: what the call will do while it is on its way ("Edit
// Projects/Plan.md", the permission prompt's words), what it did once done ("Edited
// Projects/Plan.md", "Searched notes for “plan”"). The model's arguments are untrusted: they pass
// through titleValue (one line, hidden characters made visible, cut) and only ever become text.
import type { ToolCard } from "../../../chat/toolCard";
import { t } from "../../../i18n";
import { describeToolCall, titleValue } from "../permissionText";
import { mcpTitle } from "./mcpCard";

const given = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";

/** What a finished call did. */
function doneTitle(name: string, args: Record<string, unknown>): string {
	switch (name) {
		case "search_notes":
			return given(args.query) ? t("toolCard.doneSearch", { query: titleValue(args.query) }) : t("toolCard.doneSearchAll");
		case "read_note":
			if (given(args.path)) return t("toolCard.doneRead", { path: titleValue(args.path) });
			break;
		case "get_active_note":
			return t("toolCard.doneReadActive");
		case "list_notes":
			if (given(args.tag)) return t("toolCard.doneListTag", { tag: titleValue(args.tag.replace(/^#/, "")) });
			if (given(args.folder) && args.folder.trim() !== "/") return t("toolCard.doneListFolder", { folder: titleValue(args.folder) });
			return args.recent === true ? t("toolCard.doneListRecent") : t("toolCard.doneListAll");
		case "create_note":
			if (given(args.path)) return t("toolCard.doneCreate", { path: titleValue(args.path) });
			break;
		case "edit_note":
			if (given(args.path)) return t("toolCard.doneEdit", { path: titleValue(args.path) });
			break;
	}
	return t("toolCard.doneOther", { tool: titleValue(name) });
}

/** The arguments a card knows: read ones, or while they stream, whatever of them already parses. */
export function cardArguments(card: Pick<ToolCard, "arguments" | "argumentsText">): Record<string, unknown> {
	if (card.arguments) return card.arguments;
	if (card.argumentsText === undefined) return {};
	try {
		const parsed: unknown = JSON.parse(card.argumentsText);
		return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
	} catch {
		return {};
	}
}

export function toolCardTitle(card: Pick<ToolCard, "name" | "state" | "access" | "arguments" | "argumentsText" | "mcp">): string {
	if (card.mcp !== undefined) return mcpTitle(card.mcp, card.state === "done");
	const args = cardArguments(card);
	if (card.state === "done") return doneTitle(card.name, args);
	return describeToolCall({ id: "", name: card.name, arguments: args }, { name: card.name, access: card.access ?? "read" });
}

/** An icon per tool (Lucide names, as Obsidian ships them). */
export function toolIcon(name: string): string {
	switch (name) {
		case "search_notes":
			return "search";
		case "read_note":
		case "get_active_note":
			return "file-text";
		case "list_notes":
			return "list";
		case "create_note":
			return "file-plus";
		case "edit_note":
			return "pencil";
		default:
			return "wrench";
	}
}
