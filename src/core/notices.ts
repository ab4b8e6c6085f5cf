// The warnings and status lines the engine reports, each with a stable code. The engine speaks
// English (its texts also reach scripts and the terminal); the panel shows the code in the person's
// language instead, with its parameters, so it never has to recognise English sentences. A new
// warning gets a code here, and the panel's table of codes (src/ui/panel/engineNotices.ts) must name
// it, or the build fails.

export const WARNING_CODES = [
	/** The model could not summarize earlier messages; they were shortened instead. */
	"summary_fallback",
	/** Earlier messages could not be prepared; the message went out without them. */
	"history_unprepared",
	/** The model cannot use tools; it answers without them. */
	"tools_unsupported",
	/** The server read far fewer prompt tokens than were sent. Params: reported, estimated, window. */
	"silent_prompt_cut",
	"summary_not_saved",
	"answer_not_saved",
	"tool_result_not_saved",
	/** The chat's tools switch (set before its first message) could not be saved with it. */
	"tools_switch_not_saved",
	"unfinished_answer_not_removed",
	/** The answer so far (a checkpoint while it streams) could not be saved. */
	"checkpoint_not_saved",
	"session_index_unreadable",
	"session_index_not_saved",
	/** Params: id, line. The line stays in the file. */
	"session_line_skipped",
	/** Params: id. */
	"session_header_missing",
	/** Params: id, count: records another device overwrote, written again. */
	"session_records_rewritten",
	/** Params: id. */
	"session_unreadable",
	/** Params: id. */
	"session_not_compacted",
	/** Params: id. */
	"session_rewrite_finished",
	/** An attached image could not be read, so it was not sent. Params: name. */
	"image_missing",
	/** A chat file named an image outside the vault (or in the config folder): not read. Params: name. */
	"image_path_refused",
	/** An MCP server could not give its tools for a message; it went without them. Params: server ("" when none answered). */
	"mcp_server_unavailable",
	/** Tools of an MCP server whose input cannot be sent to this model were turned off. Params: server, count. */
	"mcp_tools_off",
	/** An MCP server's tools changed between two messages; the new list was used. Params: server, added, removed, changed. */
	"mcp_tools_changed",
	/** An MCP server said its tools changed (mid-chat); the new list applies from the next message. Params: server. */
	"mcp_tools_list_changed",
] as const;

export type WarningCode = (typeof WARNING_CODES)[number];

export const STATUS_CODES = ["summarizing", "continuing"] as const;

export type StatusCode = (typeof STATUS_CODES)[number];

/** Values a notice's text names (ids, counts, token numbers): never words a server or the system wrote. */
export type NoticeParams = Readonly<Record<string, string | number>>;

/** A warning as data: its code, the values its text names, and the raw reason for "Details". */
export interface Notice {
	code: WarningCode;
	params?: NoticeParams;
	/** What the system or server said (an error's own message), shown as is, folded. */
	detail?: string;
}

/** Receives a warning: the English message (scripts, the console) and, additively, its code. */
export type WarningListener = (message: string, notice?: Notice) => void;

/** An error's own message, for a notice's `detail`. */
export function reasonOf(err: unknown): string {
	return err instanceof Error ? err.message : String(err);
}
