// What the panel needs from the engine's vault tools, as structural types: undo a write by the
// call that made it, and forget a chat's "allow for this chat" grants when the chat closes. The
// permission question itself goes the other way: the panel hands the wiring its `ask`.
import type { AccessDecision, AskFn, AskInfo } from "../tools/permissions";
import type { ToolPreview } from "../tools/types";
import type { ElicitRequest, ElicitResult } from "../mcp/elicitation";

export type { AccessDecision, AskFn, AskInfo, ToolPreview, ElicitRequest, ElicitResult };

/** An MCP server asks the person for values while one of its tools runs (elicitation, form mode). */
export interface ElicitAsk {
	/** The server, as the person named it in the settings. */
	server: string;
	/** The tool call it asks during: its card shows the form. */
	callId?: string;
	request: ElicitRequest;
}

/** Shows the form and resolves with the person's answer; `signal` (Stop, the call ending, the time limit) ends it as a cancel. */
export type ElicitPrompt = (ask: ElicitAsk, signal: AbortSignal) => Promise<ElicitResult>;

/** Why a write could not be undone: the note changed since, is gone, or the change is no longer known. */
export type RevertRefusal = "changed" | "gone" | "unavailable" | "failed";

export type RevertOutcome = { ok: true } | { ok: false; reason: RevertRefusal; detail?: string };

export interface ToolsPort {
	/** Undoes the write call `callId` made, while the note still holds what it wrote. */
	revert(callId: string): Promise<RevertOutcome>;
	/** Whether the write call `callId` made is still known (this session, among the recent changes). */
	canRevert(callId: string): boolean;
	/** The chat closed: its "allow for this chat" grants go. */
	forgetChat(chatId: string): void;
}

/** What the panel gives the engine when it is built. */
export interface PanelHooks {
	/** Shows the permission prompt on the call's card; resolves with the person's decision. */
	ask: AskFn;
	/** Shows an MCP server's form on the call's card (a modal when the panel is not on screen). */
	elicit?: ElicitPrompt;
}
