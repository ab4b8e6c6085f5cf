// The engine's warnings and status lines in the person's language, from their codes (core/notices.ts).
// The tables are typed by code: a code the engine adds without a text here fails the build.
import type { NoticeParams, StatusCode, WarningCode } from "../../core/notices";
import { t } from "../../i18n";
import { count, param } from "./noticeParams";

type Render = (p: NoticeParams | undefined) => string;

const WARNING_TEXT: Record<WarningCode, Render> = {
	summary_fallback: () => t("note.summaryFallback"),
	history_unprepared: () => t("warning.historyUnprepared"),
	tools_unsupported: () => t("warning.toolsUnsupported"),
	silent_prompt_cut: (p) => t("warning.silentPromptCut", { reported: param(p, "reported"), estimated: param(p, "estimated"), window: param(p, "window") }),
	summary_not_saved: () => t("warning.summaryNotSaved"),
	answer_not_saved: () => t("warning.answerNotSaved"),
	tool_result_not_saved: () => t("warning.toolResultNotSaved"),
	tools_switch_not_saved: () => t("warning.toolsSwitchNotSaved"),
	unfinished_answer_not_removed: () => t("warning.unfinishedAnswerNotRemoved"),
	checkpoint_not_saved: () => t("warning.checkpointNotSaved"),
	session_index_unreadable: () => t("warning.sessionIndexUnreadable"),
	session_index_not_saved: () => t("warning.sessionIndexNotSaved"),
	session_line_skipped: (p) => t("warning.sessionLineSkipped", { id: param(p, "id"), line: param(p, "line") }),
	session_header_missing: (p) => t("warning.sessionHeaderMissing", { id: param(p, "id") }),
	session_records_rewritten: (p) => t("warning.sessionRecordsRewritten", { id: param(p, "id"), count: count(p, "count") }),
	session_unreadable: (p) => t("warning.sessionUnreadable", { id: param(p, "id") }),
	session_not_compacted: (p) => t("warning.sessionNotCompacted", { id: param(p, "id") }),
	session_rewrite_finished: (p) => t("warning.sessionRewriteFinished", { id: param(p, "id") }),
	image_missing: (p) => t("warning.imageMissing", { name: param(p, "name") }),
	image_path_refused: (p) => t("warning.imagePathRefused", { name: param(p, "name") }),
	mcp_server_unavailable: (p) => (param(p, "server") === "" ? t("warning.mcpServersUnavailable") : t("warning.mcpServerUnavailable", { server: param(p, "server") })),
	mcp_tools_off: (p) => t("warning.mcpToolsOff", { server: param(p, "server"), count: count(p, "count") }),
	mcp_tools_changed: (p) => t("warning.mcpToolsChanged", { server: param(p, "server") }),
	mcp_tools_list_changed: (p) => t("warning.mcpToolsListChanged", { server: param(p, "server") }),
};

const STATUS_TEXT: Record<StatusCode, () => string> = {
	summarizing: () => t("status.summarizing"),
	continuing: () => t("status.continuing"),
};

export function warningText(code: WarningCode, params?: NoticeParams): string {
	return WARNING_TEXT[code](params);
}

export function statusText(code: StatusCode): string {
	return STATUS_TEXT[code]();
}

/** A warning event as the panel shows it: its text, and the system's own words for "Details". */
export function shownWarning(e: { message: string; code?: WarningCode; params?: NoticeParams; detail?: string }, fallback: (english: string) => string): { text: string; detail?: string } {
	// An event from an older engine (or a script's own) has no code: the known-text table still applies.
	if (e.code === undefined || !(e.code in WARNING_TEXT)) return { text: fallback(e.message) };
	return { text: warningText(e.code, e.params), ...(e.detail ? { detail: e.detail } : {}) };
}
