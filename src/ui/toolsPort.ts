// What the panel needs from the engine's vault tools, as structural types: undo a write by the
// call that made it, and forget a chat's "allow for this chat" grants when the chat closes. The
// permission question itself goes the other way: the panel hands the wiring its `ask`.
import type { AccessDecision, AskFn, AskInfo } from "../tools/permissions";
import type { ToolPreview } from "../tools/types";

export type { AccessDecision, AskFn, AskInfo, ToolPreview };

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
}
