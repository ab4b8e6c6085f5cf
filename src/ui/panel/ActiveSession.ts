import { Notice } from "obsidian";
import type { ChatMessage } from "../../core/types";
import type { ChatHeader } from "./ChatHeader";
import type { ChatRuntime, DiscoverHost } from "../host";
import { t } from "../../i18n";

/**
 * Which chat the panel shows: loads and starts chats, keeps the header's title in step with the
 * saved one, and remembers the chat in settings so the panel reopens it, also after a restart.
 */
export class ActiveSession {
	/** The model saved with the chat last shown, if it has one. */
	model: string | undefined;
	/** The agent (its note's path) saved with the chat last shown, if it has one. */
	agent: string | undefined;
	/** The tools switch saved with the chat last shown (undefined: none saved, tools on). */
	tools: boolean | undefined;

	constructor(
		private readonly host: DiscoverHost,
		private readonly header: ChatHeader,
		private readonly runtime: () => ChatRuntime | undefined,
	) {}

	/** Loads chat `id` (none, or one deleted or synced away: a fresh start); returns what to show. */
	async show(id: string | undefined, at?: string): Promise<readonly ChatMessage[]> {
		const runtime = this.runtime();
		if (!runtime) return [];
		let title = t("panel.newChat");
		this.model = undefined;
		this.agent = undefined;
		this.tools = undefined;
		if (id) {
			try {
				const session = await runtime.chat.loadSession(id, at === undefined ? undefined : { at });
				title = session.title;
				this.model = session.model;
				this.agent = session.agent;
				this.tools = session.tools;
			} catch {
				id = undefined;
			}
		}
		this.header.setTitle(title, id !== undefined);
		await this.remember(id);
		return id ? runtime.chat.messages : [];
	}

	/** Starts a new chat; false when it could not be created (the person is told why). */
	async startNew(): Promise<boolean> {
		const runtime = this.runtime();
		if (!runtime) return false;
		try {
			const session = await runtime.chat.newSession();
			this.model = undefined;
			this.agent = undefined;
			this.tools = undefined;
			this.header.setTitle(session.title, true);
			await this.remember(session.id);
			return true;
		} catch (err) {
			new Notice(t("panel.newChatFailed", { error: errorText(err) }));
			return false;
		}
	}

	async rename(title: string): Promise<void> {
		const runtime = this.runtime();
		const id = runtime?.chat.sessionId;
		if (!runtime || !id) return;
		try {
			await runtime.sessions.rename(id, title);
		} catch (err) {
			new Notice(t("panel.renameFailed", { error: errorText(err) }));
			// The header shows the title that is actually saved.
			await this.refreshTitle();
		}
	}

	/** Renamed elsewhere (the history browser). */
	renamed(id: string, title: string): void {
		if (id === this.runtime()?.chat.sessionId) this.header.setTitle(title, true);
	}

	/** The title comes from the first message; the index makes this lookup cheap. */
	async refreshTitle(): Promise<void> {
		const runtime = this.runtime();
		const id = runtime?.chat.sessionId;
		if (!runtime || !id) return;
		const summary = (await runtime.sessions.list()).find((s) => s.id === id);
		if (summary && id === this.runtime()?.chat.sessionId) this.header.setTitle(summary.title, true);
	}

	/** Saves `id` as the chat to reopen; a failed write is not an error here (the next save carries it). */
	async remember(id: string | undefined): Promise<void> {
		if (this.host.settings.activeSessionId === id) return;
		this.host.settings.activeSessionId = id;
		try {
			await this.host.saveSettings();
		} catch {
			// Which chat to reopen is a convenience: never let it break showing or sending one.
		}
	}
}

function errorText(err: unknown): string {
	return err instanceof Error ? err.message : String(err);
}
