// The parts of the engine the panel uses, as structural types: the view depends on these shapes
// (satisfied by ChatService and SessionManager), so its tests can drive it with small fakes.
import type { ChatMessage, ChatSettings, ContextSource, ImageRef, LLMAdapter, Role, Session } from "../core/types";
import { t } from "../i18n";
// Type-only imports: the engine's own shapes, so the view can't drift from them, and nothing of
// the engine is loaded with the view's module.
import type { ChatEvent, PromptPreview, SendOptions } from "../chat/ChatService";
import type { ConnectionDiagnosis, ModelInfo } from "../providers/types";
import type { MarkdownExportOptions } from "../sessions/markdown";
import type { SearchHit, SessionSummary } from "../sessions/types";
import type { BranchPort } from "./branchPort";

export type { ChatEvent, ConnectionDiagnosis, ModelInfo, PromptPreview, SearchHit, SendOptions, SessionSummary };

/** ChatPort with the branch operations (regenerate, edit, …), which the engine may lack (older fakes). */
export interface ChatPort extends Partial<BranchPort> {
	readonly sessionId: string | undefined;
	readonly messages: readonly ChatMessage[];
	readonly busy: boolean;
	newSession(): Promise<Session>;
	/** `at`: a message on another branch (a search hit); that branch opens. */
	loadSession(id: string, opts?: { at?: string }): Promise<Session>;
	sendMessage(text: string, opts?: SendOptions): Promise<ChatMessage>;
	cancel(): void;
	setAdapter(adapter: LLMAdapter, model?: string): void;
	updateSettings(settings: Partial<ChatSettings>): void;
	/** `tools`: whether the send would offer tools (false: the estimate leaves their definitions out). */
	previewPrompt(draft: string, opts?: { context?: string; sources?: readonly ContextSource[]; includeHistory?: boolean; images?: readonly ImageRef[]; tools?: boolean }): PromptPreview;
	/** Saves the chat's tools switch with it (a chat not created yet: with its first message); it comes back as `Session.tools`. */
	setTools?(on: boolean): Promise<void>;
	flush(): Promise<void>;
	/** Writes the answer being streamed to disk at once (the app is being hidden or closed). */
	checkpointNow(): Promise<void>;
}

export interface SessionsPort {
	list(): Promise<SessionSummary[]>;
	load(id: string): Promise<Session>;
	/** The user messages of chat `id`'s deleted (hidden) turns, for Restore in the history browser. */
	hiddenTurns?(id: string): Promise<ChatMessage[]>;
	/** Hides (or, with false, restores) the turn holding `messageId` in chat `id`. */
	setTurnHidden?(id: string, messageId: string, hidden: boolean): Promise<Session>;
	rename(id: string, title: string): Promise<void>;
	/** Saves the model chat `id` uses; it comes back as `Session.model`. */
	setModel?(id: string, model: string): Promise<void>;
	/** Saves the agent chat `id` uses (its note's path); it comes back as `Session.agent`. */
	setAgent?(id: string, agent: string): Promise<void>;
	/** Appends one message to chat `id` (an inline edit's review, saved after its proposal). */
	appendMessage?(id: string, message: ChatMessage): Promise<void>;
	delete(id: string): Promise<void>;
	search(query: string, opts?: { role?: Role; limit?: number }): Promise<SearchHit[]>;
	/** Reads every chat ahead of a first search, so that search answers at once. */
	warmSearch?(): Promise<void>;
	exportMarkdown(id: string, opts?: MarkdownExportOptions): Promise<string>;
	onChange?: (sessionId: string) => void;
}

export interface DiagnosableAdapter extends LLMAdapter {
	testConnection?: (signal?: AbortSignal) => Promise<ConnectionDiagnosis>;
}

/** The vault's lexical index, as `@vault` uses it (the plugin's index service satisfies it). */
export interface VaultSearchPort {
	/** The feature is on in settings (off: no index, no `@vault`). */
	readonly enabled: boolean;
	/** The passages most relevant to `query`, best first; `id` is the note's vault path. */
	search(query: string, opts?: { limit?: number }): { id: string; name: string; score: number; text: string }[];
	/** `search` with the passages' text read back from the vault (and a note changed since re-indexed first). */
	searchText?(query: string, opts?: { limit?: number }): Promise<{ id: string; name: string; score: number; text: string }[]>;
	/** When the note, now `chars` characters long, is indexed in part (over the per-note limit): that limit in MB; else undefined. */
	indexedInPartOverMb?(id: string, chars: number): number | undefined;
}

/** Where the sources attached to each chat are kept (by chat id). */
export interface SourceRefStore {
	load(sessionId: string): Promise<unknown>;
	save(sessionId: string, refs: unknown[]): Promise<void>;
}

/** Shown in the transcript: the system summary is for the model only. Tool results show plainly. */
export function isVisibleMessage(m: ChatMessage): boolean {
	return m.role === "user" || m.role === "assistant" || m.role === "tool";
}

/** How a message's author is named in lists and transcripts. */
export function roleName(role: Role): string {
	return role === "user" ? t("message.you") : role === "tool" ? t("message.toolResult") : t("message.assistant");
}
