// The panel's parts, built and wired to one another: the header, the message list, the context
// bar and sources, the composer and the turn flow. The view (DiscoverView.ts) owns their lifecycle,
// the engine and which chat is on screen; what a part asks of the view goes through PanelPorts.
import { isReadFenced } from "../../core/pathFences";
import { fencesOf } from "../../settings/fences";
import { Notice } from "obsidian";
import type { ItemView } from "obsidian";
import { promptBudget } from "../../chat/chatSettings";
import { budgetFor } from "../../settings/budgetFor";
import { ActiveSession } from "./ActiveSession";
import { ChatHeader } from "./ChatHeader";
import { ChatModel } from "./ChatModel";
import { ChatAgent } from "./ChatAgent";
import { AgentReviewCard } from "../agents/AgentReviewCard";
import { Composer } from "./Composer";
import { ContextBar } from "./ContextBar";
import { saveDraft } from "./draftState";
import { EmptyChat } from "./EmptyChat";
import type { ChatRuntime, DiscoverHost } from "../host";
import { MessageList } from "./MessageList";
import { StatusLine } from "./StatusLine";
import { typedTurn } from "./turns";
import type { RenderSchedulerOptions } from "./RenderScheduler";
import type { SearchRunnerOptions } from "../history/SearchRunner";
import { SLASH_COMMANDS, type SlashCommand } from "./slashCommands";
import { PanelSources } from "./sources/PanelSources";
import { SourceSuggest } from "./sources/SourceSuggest";
import { SourcePreparer } from "./sources/SourcePreparer";
import { TurnFlow } from "./TurnFlow";
import { showPermissionPrompt } from "./PermissionPrompt";
import type { ShowPermissionPrompt } from "./tools/ToolCards";
import { ToolsSwitch } from "./tools/ToolsSwitch";
import { BranchControls } from "./branches/BranchControls";
import { attachImageFile } from "../images/attachFile";
import { attachmentSrc, discardAttachment } from "../images/attachmentStore";

export interface DiscoverViewOptions {
	/** Frame timing for streaming renders (tests drive frames by hand). */
	scheduler?: RenderSchedulerOptions;
	/** Timing of the history browser's search. */
	search?: SearchRunnerOptions;
	/** Mounts a tool call's permission prompt in its card (default: PermissionPrompt). */
	permissionPrompt?: ShowPermissionPrompt;
}

export interface PanelParts {
	header: ChatHeader;
	toolsSwitch: ToolsSwitch;
	active: ActiveSession;
	list: MessageList;
	emptyChat: EmptyChat;
	/** Where an agent's review card shows: under the messages, above the composer, always in view. */
	reviewEl: HTMLElement;
	reviewCard?: AgentReviewCard;
	chatModel: ChatModel;
	status: StatusLine;
	context: ContextBar;
	preparer: SourcePreparer;
	sources: PanelSources;
	chatAgent: ChatAgent;
	composer: Composer;
	turns: TurnFlow;
	branches: BranchControls | undefined;
}

/** What the parts ask of the view: the engine (once built) and the view's own moves. */
export interface PanelPorts {
	runtime: () => ChatRuntime | undefined;
	busy(): boolean;
	newChat(): Promise<void>;
	startOver(): Promise<void>;
	openHistory(): void;
	openModelMenu(anchor: HTMLElement): void;
	runCommand(command: SlashCommand): Promise<void>;
	afterTurn(ended: { sentFrom: string | undefined; replace: boolean }): Promise<void>;
	afterBranchChange(): void;
	toolsFlipped(on: boolean): void;
}

/** Builds the panel's parts into `root`, in the order they show, each wired to the others. */
export function buildPanelParts(view: ItemView, root: HTMLElement, host: DiscoverHost, options: DiscoverViewOptions, ports: PanelPorts): PanelParts {
	const parts = {} as PanelParts;
	parts.header = new ChatHeader(root, {
		onRename: (title) => void parts.active.rename(title),
		onNewChat: () => void ports.newChat(),
		onHistory: () => ports.openHistory(),
		onModelMenu: (anchor) => ports.openModelMenu(anchor),
	});
	parts.toolsSwitch = new ToolsSwitch(parts.header.actionsEl, parts.header.actionsEl.firstElementChild, (on) => ports.toolsFlipped(on));
	parts.active = new ActiveSession(host, parts.header, () => ports.runtime());
	parts.list = view.addChild(
		new MessageList(root, {
			app: view.app,
			sourcePath: () => parts.context.note.path,
			loadRemoteImages: () => host.settings.loadRemoteImages,
			prices: () => ({ prices: host.settings.modelPrices, currency: host.settings.priceCurrency }),
			scheduler: options.scheduler,
			tools: () => ports.runtime()?.tools,
			permissionPrompt: options.permissionPrompt ?? showPermissionPrompt,
			decorate: (item, message) => parts.branches?.decorate(item, message),
		}),
	);
	parts.emptyChat = new EmptyChat(root, SLASH_COMMANDS, {
		onPrompt: (text) => void parts.turns.send({ ...typedTurn(text), fromInput: false }),
		onCommand: (command) => void ports.runCommand(command),
		onModelMenu: (anchor) => ports.openModelMenu(anchor),
	});
	parts.list.addIntro(parts.emptyChat.el);
	parts.reviewEl = root.createDiv({ cls: "discover-agent-review-slot", attr: { "aria-live": "polite" } });
	parts.chatModel = new ChatModel(host, () => ports.runtime(), (shown) => {
		parts.header.setModel(shown.model, shown.where);
		parts.emptyChat.setModel(shown);
	});
	parts.chatModel.render();
	parts.status = new StatusLine(root);
	parts.context = new ContextBar(
		root,
		view.app,
		host.settings.includeActiveNote,
		(sources) => ports.runtime()?.chat.previewPrompt(parts.composer.value, { sources: parts.preparer.counted(sources), includeHistory: true, images: parts.composer.images?.images, tools: parts.toolsSwitch.on }),
		// The chat's model's budget: its own (budgets per model), else the settings tab's prompt budget.
		() => promptBudget(budgetFor(host.settings, parts.chatModel.current)),
	);
	parts.context.onNoteFit = (note) => parts.emptyChat.setNote(note);
	parts.preparer = new SourcePreparer(
		() => {
			const runtime = ports.runtime();
			return runtime?.prepareSource ? (id, text, name) => runtime.prepareSource!(id, text, name) : undefined;
		},
		() => parts.context.refreshPreview(),
	);
	view.register(() => parts.preparer.stop());
	parts.sources = new PanelSources(root, view.app, {
		vaultSearch: () => host.vaultSearch,
		store: () => ports.runtime()?.sourceRefs,
		sessionId: () => ports.runtime()?.chat.sessionId,
		onChange: () => parts.context.refreshPreview(),
		fenced: (path) => isReadFenced(path, fencesOf(host.settings, view.app.vault.configDir)),
	});
	parts.context.added = parts.sources;
	parts.chatAgent = new ChatAgent(host, () => ports.runtime(), {
		setAgentModel: (model) => parts.chatModel.setAgentModel(model),
		chooseModel: (model) => parts.chatModel.choose(model),
		forgetModel: (model) => parts.chatModel.forget(model),
		ownModel: () => parts.chatModel.own,
		addSource: (ref) => parts.sources.add(ref),
		removeSource: (ref) => parts.sources.remove(ref),
		onChange: (agent) => parts.header.setAgent(agent?.name ?? ""),
		showReview: (review, actions) => {
			parts.reviewEl.empty();
			parts.reviewCard = new AgentReviewCard(parts.reviewEl, review, host.settings, actions);
		},
		clearReview: () => {
			parts.reviewCard = undefined;
			parts.reviewEl.empty();
		},
	});
	parts.sources.acceptDrops(view, root);
	parts.composer = new Composer(root, {
		onSend: (text) => void parts.turns.send(typedTurn(text, parts.composer.images?.take())),
		onStop: () => parts.turns.stop(),
		onCommand: (command) => void ports.runCommand(command),
		onInput: (text) => {
			saveDraft(host, text);
			parts.context.refreshPreview();
		},
		onFocus: () => parts.context.refresh(),
		sendKey: () => host.settings.sendKey,
		images: {
			attach: (file) => attachImageFile(view.app, host.settings.sessionsFolder, file),
			discard: (ref) => void discardAttachment(view.app, ref).catch(() => undefined),
			// The composer's own attachments are always in the chats folder: an empty address never shows.
			src: (ref) => attachmentSrc(view.app, ref) ?? "",
			onError: (message) => new Notice(message),
			// The meter counts the images too.
			onChange: () => parts.context.refreshPreview(),
		},
	});
	const suggest = new SourceSuggest(parts.composer.el, parts.composer.inputEl, view.app, {
		vault: () => host.vaultSearch?.enabled === true,
		attached: () => parts.sources.keys(),
		ownFolders: () => [host.settings.sessionsFolder, host.settings.agentsFolder],
		onChoose: (ref) => parts.sources.add(ref),
	});
	parts.composer.interceptKey = (e) => suggest.handleKey(e);
	parts.composer.onCaret = () => suggest.update();

	parts.turns = new TurnFlow({
		app: view.app,
		host: host,
		runtime: ports.runtime,
		composer: parts.composer,
		header: parts.header,
		list: parts.list,
		status: parts.status,
		context: parts.context,
		chatModel: parts.chatModel,
		chatAgent: parts.chatAgent,
		preparer: parts.preparer,
		toolsOn: () => parts.toolsSwitch.on,
		startOver: () => ports.startOver(),
		turnEnded: (ended) => ports.afterTurn(ended),
	});
	parts.branches = new BranchControls({
		runtime: ports.runtime,
		list: parts.list,
		send: (turn) => parts.turns.send(turn),
		busy: () => ports.busy(),
		changed: () => ports.afterBranchChange(),
	});
	return parts;
}
