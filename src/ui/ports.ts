// The parts of the engine the panel uses, as structural types: the view depends on these shapes
// (satisfied by ChatService and SessionManager), so its tests can drive it with small fakes.
import type { ChatMessage, ChatSettings, LLMAdapter, Role, Session } from "../chat/types";
import type { ContextFit } from "./format";

export type ChatEvent =
	| { type: "status"; text: string }
	| { type: "compacted"; summarizedCount: number }
	| { type: "warning"; message: string }
	| { type: "message"; message: ChatMessage }
	| { type: "prompt"; estimatedTokens: number; budget: number; context: ContextFit };

export interface SendOptions {
	context?: string;
	contextName?: string;
	includeHistory?: boolean;
	signal?: AbortSignal;
	onToken?: (delta: string) => void;
}

export interface PromptPreview {
	estimatedTokens: number;
	budget: number;
	context: ContextFit;
}

export interface ChatPort {
	readonly sessionId: string | undefined;
	readonly messages: readonly ChatMessage[];
	readonly busy: boolean;
	newSession(): Promise<Session>;
	loadSession(id: string): Promise<Session>;
	sendMessage(text: string, opts?: SendOptions): Promise<ChatMessage>;
	cancel(): void;
	setAdapter(adapter: LLMAdapter, model?: string): void;
	updateSettings(settings: Partial<ChatSettings>): void;
	previewPrompt(draft: string, opts?: { context?: string; includeHistory?: boolean }): PromptPreview;
	flush(): Promise<void>;
}

export interface SessionSummary {
	id: string;
	title: string;
	createdAt: string;
	updatedAt: string;
	messageCount: number;
	preview: string;
}

export interface SearchHit {
	sessionId: string;
	messageId: string;
	role: Role;
	snippet: string;
	createdAt: string;
}

export interface SessionsPort {
	list(): Promise<SessionSummary[]>;
	load(id: string): Promise<Session>;
	rename(id: string, title: string): Promise<void>;
	delete(id: string): Promise<void>;
	search(query: string, opts?: { role?: Role; limit?: number }): Promise<SearchHit[]>;
	exportMarkdown(id: string): Promise<string>;
	onChange?: (sessionId: string) => void;
}

/** The provider's plain-language connection check (server down, origin refused, bad key...). */
export interface ConnectionDiagnosis {
	ok: boolean;
	kind: string;
	message: string;
	latencyMs?: number;
}

export interface DiagnosableAdapter extends LLMAdapter {
	testConnection?: (signal?: AbortSignal) => Promise<ConnectionDiagnosis>;
}

/** Shown in the transcript: the system summary is for the model only. */
export function isVisibleMessage(m: ChatMessage): boolean {
	return m.role === "user" || m.role === "assistant";
}
