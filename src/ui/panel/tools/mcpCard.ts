// The parts of a tool card (and its permission prompt) for an MCP server's tool: whose tool it is,
// the server's annotations shown as hints (never trusted: the card still asks), the arguments as a
// readable form (one "label: value" row per value, nested values under dotted labels, never raw
// JSON), and the progress the server reports. Everything the model or the server sent is untrusted
// and only ever becomes text.
import type { McpToolOrigin, ToolProgress } from "../../../core/types";
import { t } from "../../../i18n";
import { titleValue, visibleText } from "../permissionText";

/** Rows a form shows at most; the rest are counted. */
export const MAX_FORM_ROWS = 40;
/** Characters of one value shown at most. */
export const MAX_VALUE_CHARS = 2_000;
const MAX_DEPTH = 4;

export interface FormRow {
	label: string;
	value: string;
}

function leafText(value: unknown): string {
	if (typeof value === "string") return value;
	if (value === null) return "null";
	if (typeof value === "number" || typeof value === "boolean") return String(value);
	try {
		return JSON.stringify(value) ?? "";
	} catch {
		return "";
	}
}

/** The arguments as rows: `a.b`, `list[0]`; a value nested deeper than four levels shows as one line of JSON. */
export function formRows(args: Record<string, unknown>): { rows: FormRow[]; more: number } {
	const rows: FormRow[] = [];
	let total = 0;
	const walk = (value: unknown, label: string, depth: number): void => {
		const nested = typeof value === "object" && value !== null && depth < MAX_DEPTH;
		const entries: [string, unknown][] = nested ? (Array.isArray(value) ? value.map((v, i) => [`${label}[${i}]`, v] as [string, unknown]) : Object.entries(value).map(([k, v]) => [label === "" ? k : `${label}.${k}`, v] as [string, unknown])) : [];
		if (nested && entries.length > 0) {
			for (const [l, v] of entries) walk(v, l, depth + 1);
			return;
		}
		total++;
		if (rows.length >= MAX_FORM_ROWS) return;
		const text = leafText(nested ? (Array.isArray(value) ? "[]" : "{}") : value);
		const shown = text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
		rows.push({ label: titleValue(label === "" ? "value" : label), value: visibleText(shown) });
	};
	for (const [k, v] of Object.entries(args)) walk(v, k, 1);
	return { rows, more: total - rows.length };
}

/** "Tool “x” of MCP server “y”", and the hints the server gave. */
export function originLines(mcp: McpToolOrigin): { origin: string; hints: string[] } {
	const hints: string[] = [];
	if (mcp.annotations?.readOnlyHint === true) hints.push(t("toolCard.mcpReadOnlyHint"));
	if (mcp.annotations?.destructiveHint === true && mcp.annotations.readOnlyHint !== true) hints.push(t("toolCard.mcpDestructiveHint"));
	return { origin: t("toolCard.mcpOrigin", { tool: titleValue(mcp.tool), server: titleValue(mcp.server) }), hints };
}

/** The card's title for an MCP call: "Run x (server)", "Ran x (server)". */
export function mcpTitle(mcp: McpToolOrigin, done: boolean): string {
	const vars = { tool: titleValue(mcp.title ?? mcp.tool), server: titleValue(mcp.server) };
	return done ? t("toolCard.mcpDone", vars) : t("toolCard.mcpRun", vars);
}

/** "2 of 4 — copying", "3 done so far". */
export function progressText(p: ToolProgress): string {
	const n = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(1));
	const base = p.total !== undefined && Number.isFinite(p.total) && p.total > 0 ? t("toolCard.mcpProgress", { progress: n(p.progress), total: n(p.total) }) : t("toolCard.mcpProgressOpen", { progress: n(p.progress) });
	return p.message !== undefined && p.message !== "" ? `${base} — ${titleValue(p.message)}` : base;
}

/** Renders the MCP block of a card into `el` (emptied first). */
export function renderMcpBlock(el: HTMLElement, mcp: McpToolOrigin, args: Record<string, unknown> | undefined, progress: ToolProgress | undefined, showArgs: boolean): void {
	el.empty();
	const { origin, hints } = originLines(mcp);
	el.createDiv({ cls: "discover-mcp-origin", text: origin });
	for (const hint of hints) el.createDiv({ cls: "discover-mcp-hint", text: hint });
	if (showArgs) {
		const { rows, more } = formRows(args ?? {});
		const form = el.createEl("dl", { cls: "discover-mcp-args", attr: { "aria-label": t("toolCard.mcpArguments") } });
		if (rows.length === 0) el.createDiv({ cls: "discover-mcp-args-none", text: t("toolCard.mcpNoArguments") });
		for (const row of rows) {
			form.createEl("dt", { cls: "discover-mcp-arg-label", text: row.label });
			form.createEl("dd", { cls: "discover-mcp-arg-value", text: row.value });
		}
		if (more > 0) el.createDiv({ cls: "discover-mcp-args-more", text: `+${more}` });
	}
	if (progress !== undefined) {
		const line = el.createDiv({ cls: "discover-mcp-progress", attr: { role: "status" } });
		if (progress.total !== undefined && progress.total > 0) line.createEl("progress", { attr: { max: String(progress.total), value: String(Math.min(progress.progress, progress.total)) } });
		line.createSpan({ text: progressText(progress) });
	}
}
