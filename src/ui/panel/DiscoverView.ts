import { ItemView, Notice } from "obsidian";
import type { WorkspaceLeaf } from "obsidian";
import { promptBudget } from "../../chat/chatSettings";
import type { ChatMessage } from "../../core/types";
import { ActiveSession } from "./ActiveSession";
import type { Attachment } from "./AttachedSelection";
import { ChatHeader } from "./ChatHeader";
import { ChatModel } from "./ChatModel";
import { Composer } from "./Composer";
import { ContextBar } from "./ContextBar";
import { savedDraft, saveDraft } from "./draftState";
import { EmptyChat } from "./EmptyChat";
import { diagnose } from "./errorDiagnosis";
import type { ChatRuntime, ChatRuntimeFactory, DiscoverHost } from "../host";
import { MessageList } from "./MessageList";
import { MODEL_NEEDED, modelMissing } from "./modelNeeded";
import { openModelMenu } from "./ModelMenu";
import { openPluginSettings } from "./openSettings";
import { HistoryModal } from "../history/HistoryModal";
import { StatusLine } from "./StatusLine";
import { engineText } from "./engineText";
import { showTurnFailure } from "./turnFailure";
import { commandTurn, retryTurn, typedTurn, type Turn } from "./turns";
import { historyStateFor, invalidateSessionList } from "../history/historyState";
import type { ChatEvent, SendOptions } from "../ports";
import type { RenderSchedulerOptions } from "./RenderScheduler";
import type { SearchRunnerOptions } from "../history/SearchRunner";
import { SLASH_COMMANDS, type SlashCommand } from "./slashCommands";
import { VIEW_TYPE_DISCOVER } from "../viewType";
import { PanelSources } from "./sources/PanelSources";
import { SourceSuggest } from "./sources/SourceSuggest";
import { SourcePreparer } from "./sources/SourcePreparer";
import { useReportedWindow, windowOffer } from "./windowOffer";
import { t } from "../../i18n";

export interface DiscoverViewOptions {
	/** Frame timing for streaming renders (tests drive frames by hand). */
	scheduler?: RenderSchedulerOptions;
	/** Timing of the history browser's search. */
	search?: SearchRunnerOptions;
}

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
	private emptyChat!: EmptyChat;
	private sending = false;
	private sendingSession: string | undefined;
	private stopController: AbortController | undefined;
	/** The chat was deleted while it was answering: a new one replaces it when the turn ends. */
	private replaceAfterTurn = false;
	private closed = false;
	/** The prompt to pick a model, while it is on screen. */
	private modelPrompt: HTMLElement | undefined;
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
		this.header = new ChatHeader(root, {
			onRename: (title) => void this.active.rename(title),
			onNewChat: () => void this.newChat(),
			onHistory: () => this.openHistory(),
			onModelMenu: (anchor) => this.openModelMenu(anchor),
		});
		this.active = new ActiveSession(this.host, this.header, () => this.runtime);
		this.list = this.addChild(
			new MessageList(root, {
				app: this.app,
				sourcePath: () => this.context.note.path,
				loadRemoteImages: () => this.host.settings.loadRemoteImages,
				scheduler: this.options.scheduler,
			}),
		);
		this.emptyChat = new EmptyChat(root, SLASH_COMMANDS, {
			onPrompt: (text) => void this.send({ ...typedTurn(text), fromInput: false }),
			onCommand: (command) => void this.runCommand(command),
			onModelMenu: (anchor) => this.openModelMenu(anchor),
		});
		this.list.addIntro(this.emptyChat.el);
		this.chatModel = new ChatModel(this.host, () => this.runtime, (shown) => {
			this.header.setModel(shown.model, shown.where);
			this.emptyChat.setModel(shown);
		});
		this.chatModel.render();
		this.status = new StatusLine(root);
		this.context = new ContextBar(
			root,
			this.app,
			this.host.settings.includeActiveNote,
			(sources) => this.runtime?.chat.previewPrompt(this.composer.value, { sources: this.preparer.counted(sources), includeHistory: true }),
			// The same figure the settings tab calls the prompt budget.
			() => promptBudget(this.host.settings),
		);
		this.context.onNoteFit = (note) => this.emptyChat.setNote(note);
		this.preparer = new SourcePreparer(
			() => {
				const runtime = this.runtime;
				return runtime?.prepareSource ? (id, text, name) => runtime.prepareSource!(id, text, name) : undefined;
			},
			() => this.context.refreshPreview(),
		);
		this.register(() => this.preparer.stop());
		this.sources = new PanelSources(root, this.app, {
			vaultSearch: () => this.host.vaultSearch,
			store: () => this.runtime?.sourceRefs,
			sessionId: () => this.runtime?.chat.sessionId,
			onChange: () => this.context.refreshPreview(),
		});
		this.context.added = this.sources;
		this.sources.acceptDrops(this, root);
		this.composer = new Composer(root, {
			onSend: (text) => void this.send(typedTurn(text)),
			onStop: () => this.stop(),
			onCommand: (command) => void this.runCommand(command),
			onInput: (text) => {
				saveDraft(this.host, text);
				this.context.refreshPreview();
			},
			onFocus: () => this.context.refresh(),
			sendKey: () => this.host.settings.sendKey,
		});
		const suggest = new SourceSuggest(this.composer.el, this.composer.inputEl, this.app, {
			vault: () => this.host.vaultSearch?.enabled === true,
			attached: () => this.sources.keys(),
			onChoose: (ref) => this.sources.add(ref),
		});
		this.composer.interceptKey = (e) => suggest.handleKey(e);
		this.composer.onCaret = () => suggest.update();

		this.context.register(this);
		// Obsidian waits for quit tasks: the partial answer is saved before the app closes.
		this.registerEvent(this.app.workspace.on("quit", (tasks) => tasks.add(() => this.flushRuntime(this.runtime))));
		// A crash, a killed app or a phone putting Obsidian away gives no quit: these are the last
		// moments a write may still land, so the answer being streamed goes to disk at once.
		const win = this.containerEl.win;
		const doc = this.containerEl.doc;
		this.registerDomEvent(win, "pagehide", () => this.checkpointNow());
		this.registerDomEvent(doc, "visibilitychange", () => {
			if (doc.visibilityState === "hidden") this.checkpointNow();
		});

		const draft = savedDraft(this.host);
		if (draft !== "") this.composer.setValue(draft, false);
		this.ready = this.start();
		await this.ready;
	}

	/** Builds the engine and shows the active session; a failure shows why, with Retry. */
	private async start(): Promise<void> {
		try {
			const runtime = await this.createRuntime(this.host, (e) => this.onChatEvent(e));
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

	override async onClose(): Promise<void> {
		this.closed = true;
		const runtime = this.runtime;
		this.runtime = undefined;
		await this.flushRuntime(runtime);
	}

	private checkpointNow(): void {
		this.runtime?.chat.checkpointNow().catch((err: unknown) => console.error("Discover: the answer so far could not be saved", err));
	}

	/** Stops a running answer and waits until its partial text (and the calibration) is saved. */
	private async flushRuntime(runtime: ChatRuntime | undefined): Promise<void> {
		await runtime?.chat.flush();
		await runtime?.close?.();
	}

	/** Puts text into the input (from history's "To prompt"). */
	setDraft(text: string): void {
		this.composer.setValue(text);
	}

	/** Switches to a saved session and continues it. */
	async openSession(id: string): Promise<void> {
		if (!this.runtime) return;
		if (this.sending || this.runtime.chat.busy) {
			// The answer belongs to the chat on screen: switching now would hide where it goes.
			new Notice(t("panel.stopBeforeSwitching"));
			return;
		}
		await this.showSession(id);
	}

	get chatRuntime(): ChatRuntime | undefined {
		return this.runtime;
	}

	private async showSession(id: string | undefined): Promise<void> {
		const messages = await this.active.show(id);
		await this.chatModel.follow(this.runtime?.chat.sessionId, this.active.model);
		this.list.setMessages(messages);
		await this.sources.showChat(this.runtime?.chat.sessionId);
		this.context.updatePreview();
		this.showEmptyChat();
	}

	/** A fresh chat on screen, whatever the current one holds (used mid-send, so no busy checks). */
	private async startOver(): Promise<void> {
		if (!(await this.active.startNew())) return;
		await this.chatModel.follow(this.runtime?.chat.sessionId, undefined);
		this.list.setMessages([]);
		await this.sources.showChat(undefined);
		this.context.updatePreview();
		this.showEmptyChat();
	}

	/** `replace`: the current chat is gone (deleted), so a fresh one is needed even if it was empty. */
	private async newChat(replace = false): Promise<void> {
		const runtime = this.runtime;
		if (!runtime || this.sending || runtime.chat.busy) return;
		// A chat with nothing in it yet is already new: another would only leave an empty one in history.
		if (replace || runtime.chat.messages.length > 0) {
			if (!(await this.active.startNew())) return;
			await this.chatModel.follow(runtime.chat.sessionId, undefined);
			await this.sources.showChat(undefined);
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
		if (!modelMissing({ model: this.chatModel.current })) {
			this.modelPrompt?.remove();
			this.modelPrompt = undefined;
		}
		this.showEmptyChat();
	}

	/** The welcome shows while the chat has no message; the model may have changed in settings. */
	private showEmptyChat(): void {
		this.emptyChat.setShown(this.list.isEmpty);
		this.chatModel.render();
	}

	private openModelMenu(anchor: HTMLElement): void {
		if (!this.runtime || this.sending) return;
		void openModelMenu(anchor, {
			current: this.chatModel.current,
			list: (refresh) => this.chatModel.list(refresh),
			onChoose: (model) => void this.chatModel.choose(model),
		});
	}

	private openHistory(): void {
		const runtime = this.runtime;
		if (!runtime) return;
		new HistoryModal(this.app, this.host, runtime.sessions, {
			activeSessionId: runtime.chat.sessionId,
			search: this.options.search,
			onLoad: (id) => void this.openSession(id),
			onToPrompt: (text) => this.setDraft(text),
			onRenamed: (id, title) => this.active.renamed(id, title),
			onDeleted: (id) => {
				if (id !== this.runtime?.chat.sessionId) return;
				if (!this.sending) {
					void this.newChat(true);
					return;
				}
				// The running answer has nowhere to go: stop it, then start afresh once it has ended.
				this.replaceAfterTurn = true;
				this.stop();
			},
		}).open();
	}

	private async runCommand(command: SlashCommand): Promise<void> {
		if (command.needsNote && !this.context.note.current) {
			this.list.showNote(t("panel.commandNeedsNote", { command: command.name }));
			return;
		}
		await this.send(commandTurn(command));
	}

	private async send(turn: Turn): Promise<void> {
		const runtime = this.runtime;
		if (!runtime || this.sending || runtime.chat.busy) return;
		this.modelPrompt?.remove();
		this.modelPrompt = undefined;
		// The chat's own model counts (picked in the header, or saved with the chat), else the settings' one.
		if (modelMissing({ model: this.chatModel.current })) {
			// Nothing is sent or saved, and the input keeps the text.
			this.askForModel();
			return;
		}
		this.sending = true;
		this.composer.setBusy(true);
		this.header.setBusy(true);
		this.list.clearError();
		if (turn.fromInput) this.composer.setValue("", false);
		const controller = new AbortController();
		const options: SendOptions = {
			includeHistory: turn.includeHistory,
			signal: controller.signal,
			onToken: (d) => this.onToken(d),
			onThinking: (d) => this.onThinking(d),
			onTextRetracted: () => this.list.retractAnswer(),
		};
		// Stop works from the first moment the button shows it, also while settings and note load.
		this.stopController = controller;
		try {
			const sync = await runtime.syncSettings();
			if (sync?.chatLeftBehind) {
				// The open chat stays in the old folder: start afresh there, and let the person resend.
				if (turn.fromInput && this.composer.value === "") this.composer.setValue(turn.text);
				await this.startOver();
				const { from, to } = sync.chatLeftBehind;
				this.list.showNote(t("panel.chatsFolderMoved", { to, from }));
				return;
			}
			// A command about the whole note never sends the attached selection, so never uses it up.
			const attachment = turn.withContext && !turn.wholeNote ? this.context.attachment : undefined;
			if (turn.withContext) options.sources = await this.context.sourcesFor(turn.wholeNote, turn.text);
			if (controller.signal.aborted) {
				// Stopped before anything went out: the question goes back into the input, unsent.
				if (turn.fromInput && !turn.wholeNote && this.composer.value === "") this.composer.setValue(turn.text);
				return;
			}
			this.sendingSession = runtime.chat.sessionId;
			this.status.set(t("status.waiting"));
			const answer = await runtime.chat.sendMessage(turn.text, options);
			this.list.upsert(answer);
			// The attached selection has had its answer.
			this.context.detachSelection(attachment);
		} catch (err) {
			this.onSendFailed(err, turn, controller.signal.aborted);
		} finally {
			this.stopController = undefined;
			this.sending = false;
			this.composer.setBusy(false);
			this.header.setBusy(false);
			this.status.set("");
			// The answer may have recalibrated the estimator: the next send's prices are made ahead too.
			this.preparer.again();
			await this.afterTurn();
		}
	}

	private askForModel(): void {
		this.modelPrompt = this.list.showOffer(MODEL_NEEDED.text, MODEL_NEEDED.action, () =>
			Promise.resolve(openPluginSettings(this.app, this.host.manifest?.id) ? MODEL_NEEDED.opened : MODEL_NEEDED.noWindow),
		);
	}

	private stop(): void {
		this.stopController?.abort();
		this.runtime?.chat.cancel();
	}

	private onToken(delta: string): void {
		if (!this.list.isStreaming) this.list.startStreaming();
		// The caret at the end of the text shows where it grows; the line says what is happening.
		this.status.set(t("status.writing"));
		this.list.appendToken(delta);
	}

	private onThinking(delta: string): void {
		if (!this.list.isStreaming) this.list.startStreaming();
		// The thinking block above the answer says "Thinking…": the status line would say it twice.
		this.status.set("");
		this.list.appendThinking(delta);
	}

	private onSendFailed(err: unknown, turn: Turn, aborted: boolean): void {
		this.list.endStreaming({ stopped: aborted });
		if (aborted) {
			// Stopped before the question was saved: it goes back into the input, unsent.
			const messages = this.runtime?.chat.messages ?? [];
			const last = messages[messages.length - 1];
			const recorded = last?.role === "user" && last.content === turn.text;
			if (!recorded && turn.fromInput && !turn.wholeNote && this.composer.value === "") this.composer.setValue(turn.text);
			return;
		}
		showTurnFailure(
			{ list: this.list, composer: this.composer, messages: this.runtime?.chat.messages ?? [], adapter: this.runtime?.adapter() },
			{ err, text: turn.text, wholeNote: turn.wholeNote, retry: () => void this.send(retryTurn(turn)) },
		);
	}

	private async afterTurn(): Promise<void> {
		const runtime = this.runtime;
		if (!runtime) return;
		if (this.replaceAfterTurn) {
			this.replaceAfterTurn = false;
			await this.newChat(true);
			return;
		}
		const id = runtime.chat.sessionId;
		if (id && id !== this.sendingSession) await this.active.remember(id);
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
		return this.sending || this.runtime?.chat.busy === true;
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
		this.stop();
	}

	/** Runs a `/` command as if typed (e.g. "Summarize this note"). */
	runSlashCommand(command: SlashCommand): Promise<void> {
		return this.runCommand(command);
	}

	private onChatEvent(e: ChatEvent): void {
		switch (e.type) {
			case "status":
				this.status.set(engineText(e.text));
				break;
			case "warning":
				this.list.showNote(engineText(e.message));
				break;
			case "message":
				this.onMessage(e.message);
				break;
			case "prompt":
				this.context.showPrompt(e.estimatedTokens, e.budget, e.sources);
				break;
			case "window":
				this.offerWindow(e.reported);
				break;
			case "compacted":
				break;
		}
	}

	/** The server's real window is smaller than the context size: offer to use it, in one click. */
	private offerWindow(reported: number): void {
		if (reported >= this.host.settings.maxPromptTokens) return;
		const offer = windowOffer(this.host.settings, reported);
		if (offer.action === undefined) this.list.showNote(offer.text);
		else this.list.showOffer(offer.text, offer.action, () => useReportedWindow(this.host, reported));
	}

	private onMessage(message: ChatMessage): void {
		this.list.upsert(message);
		this.showEmptyChat();
		if (message.role !== "user") return;
		// The chat remembers the model its first message went to, and the sources attached so far.
		void this.chatModel.messageSaved();
		void this.sources.chatSaved();
		// The answer's bubble goes right under the question, before the first token arrives.
		if (this.sending && !this.list.isStreaming) this.list.startStreaming();
		// The question is saved: remember its chat now, so a restart mid-answer reopens it.
		const id = this.runtime?.chat.sessionId;
		this.active
			.remember(id)
			.then(() => this.active.refreshTitle())
			// A title or a settings write that fails now is retried when the turn ends.
			.catch(() => undefined);
	}
}
