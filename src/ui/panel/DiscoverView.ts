import { ItemView, Notice } from "obsidian";
import type { WorkspaceLeaf } from "obsidian";
import type { ChatMessage } from "../../core/types";
import type { ActiveSession } from "./ActiveSession";
import type { Attachment } from "./AttachedSelection";
import type { ChatHeader } from "./ChatHeader";
import type { ChatModel } from "./ChatModel";
import type { ChatAgent } from "./ChatAgent";
import type { Composer } from "./Composer";
import type { ContextBar } from "./ContextBar";
import { savedDraft } from "./draftState";
import type { EmptyChat } from "./EmptyChat";
import { diagnose } from "./errorDiagnosis";
import type { ChatRuntime, ChatRuntimeFactory, DiscoverHost } from "../host";
import type { ElicitAsk, ElicitResult } from "../toolsPort";
import type { MessageList } from "./MessageList";
import { openModelMenu } from "./ModelMenu";
import { HistoryModal } from "../history/HistoryModal";
import type { StatusLine } from "./StatusLine";
import { commandTurn } from "./turns";
import { historyStateFor, invalidateSessionList } from "../history/historyState";
import type { ChatEvent } from "../ports";
import type { SlashCommand } from "./slashCommands";
import { VIEW_TYPE_DISCOVER } from "../viewType";
import type { PanelSources } from "./sources/PanelSources";
import type { SourcePreparer } from "./sources/SourcePreparer";
import { flushRuntime, keepAnswerOnExit } from "./answerOnExit";
import { showChatEvent } from "./chatEvents";
import type { TurnFlow } from "./TurnFlow";
import type { ToolsSwitch } from "./tools/ToolsSwitch";
import type { BranchControls } from "./branches/BranchControls";
import { currentLanguage, t } from "../../i18n";
import { buildPanelParts, type DiscoverViewOptions, type PanelPorts } from "./PanelParts";

export type { DiscoverViewOptions } from "./PanelParts";

/** The chat panel in the right sidebar. Everything heavy is built when it first opens. */
export class DiscoverView extends ItemView {
	private runtime: ChatRuntime | undefined;
	private header!: ChatHeader;
	private active!: ActiveSession;
	private list!: MessageList;
	private status!: StatusLine;
	private context!: ContextBar;
	private sources!: PanelSources;
	private preparer!: SourcePreparer;
	private composer!: Composer;
	private chatModel!: ChatModel;
	private chatAgent!: ChatAgent;
	private emptyChat!: EmptyChat;
	private turns!: TurnFlow;
	private toolsSwitch!: ToolsSwitch;
	private branches: BranchControls | undefined;
	private closed = false;
	/** Settles once the engine is built (or failed to build): commands wait for it. */
	private ready: Promise<void> = Promise.resolve();

	constructor(
		leaf: WorkspaceLeaf,
		private readonly host: DiscoverHost,
		/** Builds the engine: the wiring passes the plugin's, tests their own. */
		private readonly createRuntime: ChatRuntimeFactory,
		private readonly options: DiscoverViewOptions = {},
	) {
		super(leaf);
	}

	override getViewType(): string {
		return VIEW_TYPE_DISCOVER;
	}

	override getDisplayText(): string {
		return "Discover";
	}

	override getIcon(): string {
		return "messages-square";
	}

	override async onOpen(): Promise<void> {
		const root = this.contentEl;
		root.empty();
		root.addClass("discover-chat-view");
		// The panel's language: screen readers read it so, and CJK text gets its own glyphs and weights (styles.css).
		root.setAttr("lang", currentLanguage());
		({
			header: this.header,
			toolsSwitch: this.toolsSwitch,
			active: this.active,
			list: this.list,
			emptyChat: this.emptyChat,
			chatModel: this.chatModel,
			status: this.status,
			context: this.context,
			preparer: this.preparer,
			sources: this.sources,
			chatAgent: this.chatAgent,
			composer: this.composer,
			turns: this.turns,
			branches: this.branches,
		} = buildPanelParts(this, root, this.host, this.options, this.ports()));
		this.context.register(this);
		keepAnswerOnExit(this, () => this.runtime);

		const draft = savedDraft(this.host);
		if (draft !== "") this.composer.setValue(draft, false);
		this.ready = this.start();
		await this.ready;
	}

	/** What the panel's parts ask of the view. */
	private ports(): PanelPorts {
		return {
			runtime: () => this.runtime,
			busy: () => this.isAnswering,
			newChat: () => this.newChat(),
			startOver: () => this.startOver(),
			openHistory: () => this.openHistory(),
			openModelMenu: (anchor) => this.openModelMenu(anchor),
			runCommand: (command) => this.runCommand(command),
			afterTurn: (ended) => this.afterTurn(ended),
			afterBranchChange: () => this.afterBranchChange(),
			toolsFlipped: (on) => this.toolsFlipped(on),
		};
	}

	/** Builds the engine and shows the active session; a failure shows why, with Retry. */
	private async start(): Promise<void> {
		try {
			const runtime = await this.createRuntime(this.host, (e) => this.onChatEvent(e), {
				// A call no rule allows: the prompt mounts in its card.
				ask: (call, tool, preview, info) => this.list.toolCards.ask(call, tool, preview, info),
				// An MCP server's form: in its call's card; in a modal when the panel is not on screen.
				elicit: (ask, signal) => this.showElicitation(ask, signal),
			});
			// Closed while the engine was being built: nothing will use it.
			if (this.closed) {
				await runtime.close?.();
				return;
			}
			this.runtime = runtime;
		} catch (err) {
			this.list.showError({ ...diagnose(err), title: t("panel.chatCouldNotStart") }, () => void this.start());
			return;
		}
		// Any saved change makes the history's cached list stale.
		this.runtime.sessions.onChange = () => invalidateSessionList(historyStateFor(this.host));
		await this.showSession(this.host.settings.activeSessionId);
		this.context.refresh();
	}

	private async showElicitation(ask: ElicitAsk, signal: AbortSignal): Promise<ElicitResult> {
		// Loaded when a server first asks: the form's checks are the MCP client's, kept off the plugin's startup path.
		const { showElicitation, showElicitationModal } = await import("../mcpElicitCard");
		const inCard = this.contentEl.isShown() ? this.list.toolCards.elicit(ask, signal, showElicitation) : undefined;
		return inCard ?? showElicitationModal(this.app, ask, signal);
	}

	override async onClose(): Promise<void> {
		this.closed = true;
		const runtime = this.runtime;
		this.runtime = undefined;
		this.list.toolCards.denyPending();
		const open = runtime?.chat.sessionId;
		if (open !== undefined) runtime?.tools?.forgetChat(open);
		await flushRuntime(runtime);
	}

	/** Puts text into the input (from history's "To prompt"). */
	setDraft(text: string): void {
		this.composer.setValue(text);
	}

	/** Switches to a saved session and continues it. */
	async openSession(id: string, at?: string): Promise<void> {
		if (!this.runtime) return;
		if (this.turns.sending || this.runtime.chat.busy) {
			// The answer belongs to the chat on screen: switching now would hide where it goes.
			new Notice(t("panel.stopBeforeSwitching"));
			return;
		}
		await this.showSession(id, at);
	}

	get chatRuntime(): ChatRuntime | undefined {
		return this.runtime;
	}

	/** `at`: a message on another branch of chat `id` (a search hit): that branch is shown. */
	private async showSession(id: string | undefined, at?: string): Promise<void> {
		const before = this.runtime?.chat.sessionId;
		const messages = await this.active.show(id, at);
		this.chatShown(before);
		await this.chatModel.follow(this.runtime?.chat.sessionId, this.active.model);
		this.list.setMessages(messages);
		await this.sources.showChat(this.runtime?.chat.sessionId);
		await this.chatAgent.follow(this.runtime?.chat.sessionId, this.active.agent);
		this.context.updatePreview();
		this.showEmptyChat();
	}

	/** A fresh chat on screen, whatever the current one holds (used mid-send, so no busy checks). */
	private async startOver(): Promise<void> {
		const before = this.runtime?.chat.sessionId;
		if (!(await this.active.startNew())) return;
		this.chatShown(before);
		await this.chatModel.follow(this.runtime?.chat.sessionId, undefined);
		this.list.setMessages([]);
		await this.sources.showChat(undefined);
		await this.chatAgent.follow(undefined, undefined);
		this.context.updatePreview();
		this.showEmptyChat();
	}

	/** `replace`: the current chat is gone (deleted), so a fresh one is needed even if it was empty. */
	private async newChat(replace = false): Promise<void> {
		const runtime = this.runtime;
		if (!runtime || this.turns.sending || runtime.chat.busy) return;
		// A chat with nothing in it yet is already new: another would only leave an empty one in history.
		if (replace || runtime.chat.messages.length > 0) {
			const before = runtime.chat.sessionId;
			if (!(await this.active.startNew())) return;
			this.chatShown(before);
			await this.chatModel.follow(runtime.chat.sessionId, undefined);
			await this.sources.showChat(undefined);
			await this.chatAgent.follow(undefined, undefined);
		}
		this.list.setMessages([]);
		this.showEmptyChat();
		this.status.set("");
		this.context.updatePreview();
		this.composer.focus();
	}

	/**
	 * Settings were saved (the settings tab, or sync): the model shown, the welcome and a prompt to
	 * pick a model follow at once, not only on the next send.
	 */
	settingsChanged(): void {
		if (!this.chatModel || !this.emptyChat) return;
		this.turns.settingsChanged();
		this.showEmptyChat();
	}

	/**
	 * Another chat is on screen: the one left forgets its "allow for this chat" grants (they were
	 * given for that conversation), and the tools switch shows the new chat's.
	 */
	private chatShown(before: string | undefined): void {
		const now = this.runtime?.chat.sessionId;
		if (before !== undefined && before !== now) this.runtime?.tools?.forgetChat(before);
		this.toolsSwitch.show(this.active.tools);
	}

	/** The tools switch flipped: the meter drops (or adds) the tool definitions now, and the chat saves it. */
	private toolsFlipped(on: boolean): void {
		this.context.updatePreview();
		this.runtime?.chat.setTools?.(on).catch(() => new Notice(t("warning.toolsSwitchNotSaved")));
	}

	/** The welcome shows while the chat has no message; the model may have changed in settings. */
	private showEmptyChat(): void {
		this.emptyChat.setShown(this.list.isEmpty);
		this.chatModel.render();
	}

	private openModelMenu(anchor: HTMLElement): void {
		if (!this.runtime || this.turns.sending) return;
		void openModelMenu(anchor, {
			current: this.chatModel.current,
			list: (refresh) => this.chatModel.list(refresh),
			onChoose: (model) => void this.chatModel.choose(model),
			...(this.host.agents ? { agents: { current: this.chatAgent.current?.path, list: () => this.chatAgent.list(), onChoose: (path: string) => void this.chatAgent.choose(path) } } : {}),
		});
	}

	private openHistory(): void {
		const runtime = this.runtime;
		if (!runtime) return;
		new HistoryModal(this.app, this.host, runtime.sessions, {
			activeSessionId: runtime.chat.sessionId,
			search: this.options.search,
			onLoad: (id, at) => void this.openSession(id, at),
			onRestoreTurn: (id, messageId) => this.restoreTurn(id, messageId),
			onToPrompt: (text) => this.setDraft(text),
			onRenamed: (id, title) => this.active.renamed(id, title),
			onDeleted: (id) => {
				if (id !== this.runtime?.chat.sessionId) return;
				if (!this.turns.sending) {
					void this.newChat(true);
					return;
				}
				// The running answer has nowhere to go: stop it, then start afresh once it has ended.
				this.turns.stopAndReplace();
			},
		}).open();
	}

	/** A turn of chat `id` restored in the history browser: through the engine when it is the chat on screen. */
	private async restoreTurn(id: string, messageId: string): Promise<void> {
		if (id === this.runtime?.chat.sessionId) await this.branches?.restore(messageId);
		else await this.runtime?.sessions.setTurnHidden?.(id, messageId, false);
	}

	private afterBranchChange(): void {
		this.context.updatePreview();
		this.showEmptyChat();
	}

	private async runCommand(command: SlashCommand): Promise<void> {
		if (command.needsNote && !this.context.note.current) {
			this.list.showNote(t("panel.commandNeedsNote", { command: command.name }));
			return;
		}
		await this.turns.send(commandTurn(command));
	}

	private async afterTurn(ended: { sentFrom: string | undefined; replace: boolean }): Promise<void> {
		const runtime = this.runtime;
		if (!runtime) return;
		if (ended.replace) {
			await this.newChat(true);
			return;
		}
		const id = runtime.chat.sessionId;
		if (id && id !== ended.sentFrom) await this.active.remember(id);
		await this.active.refreshTitle();
		this.context.updatePreview();
		this.showEmptyChat();
	}

	// What the commands and the editor's menu ask of the panel (see commands.ts).

	/** Resolves once the engine is built, so a command run as the panel opens is not lost. */
	whenReady(): Promise<void> {
		return this.ready;
	}

	get isAnswering(): boolean {
		return this.turns.sending || this.runtime?.chat.busy === true;
	}

	/** The newest answer's text, or undefined when the chat has none (or it failed). */
	lastAnswer(): string | undefined {
		const messages = this.runtime?.chat.messages ?? [];
		for (let i = messages.length - 1; i >= 0; i--) {
			const m = messages[i];
			if (m?.role === "assistant" && m.error === undefined && m.content.trim() !== "") return m.content;
		}
		return undefined;
	}

	startNewChat(): Promise<void> {
		return this.newChat();
	}

	showHistory(): void {
		this.openHistory();
	}

	/** Attaches the text as the next message's context and puts the cursor in the input. */
	askAbout(attachment: Attachment): void {
		this.context.attachSelection(attachment);
		this.composer.focus();
	}

	focusInput(): void {
		this.composer.focus();
	}

	stopAnswer(): void {
		this.turns.stop();
	}

	/** Runs a `/` command as if typed (e.g. "Summarize this note"). */
	runSlashCommand(command: SlashCommand): Promise<void> {
		return this.runCommand(command);
	}

	private onChatEvent(e: ChatEvent): void {
		showChatEvent(e, { host: this.host, status: this.status, list: this.list, context: this.context, onMessage: (m) => this.onMessage(m), model: () => this.chatModel.current });
	}

	private onMessage(message: ChatMessage): void {
		this.list.upsert(message);
		this.showEmptyChat();
		if (message.role !== "user") return;
		// The chat remembers the model its first message went to, and the sources attached so far.
		void this.chatModel.messageSaved();
		void this.chatAgent.messageSaved();
		void this.sources.chatSaved();
		// The answer's bubble goes right under the question, before the first token arrives.
		if (this.turns.sending && !this.list.isStreaming) this.list.startStreaming();
		// The question is saved: remember its chat now, so a restart mid-answer reopens it.
		const id = this.runtime?.chat.sessionId;
		this.active
			.remember(id)
			.then(() => this.active.refreshTitle())
			// A title or a settings write that fails now is retried when the turn ends.
			.catch(() => undefined);
	}
}
