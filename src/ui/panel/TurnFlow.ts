// One turn from the panel: the checks before sending (a model is chosen), the sources gathered, the
// answer streamed into the list, Stop, and what a failure shows (with Retry). The panel asks it
// whether a turn is running and hears when one has ended.
import type { App } from "obsidian";
import type { ChatRuntime, DiscoverHost } from "../host";
import type { SendOptions } from "../ports";
import type { ChatHeader } from "./ChatHeader";
import type { ChatAgent } from "./ChatAgent";
import type { ChatModel } from "./ChatModel";
import type { Composer } from "./Composer";
import type { ContextBar } from "./ContextBar";
import type { MessageList } from "./MessageList";
import { MODEL_NEEDED, modelMissing } from "./modelNeeded";
import { openPluginSettings } from "./openSettings";
import type { SourcePreparer } from "./sources/SourcePreparer";
import type { StatusLine } from "./StatusLine";
import { showTurnFailure } from "./turnFailure";
import { retryTurn, type Turn } from "./turns";
import { t } from "../../i18n";
import { isImagesUnsupported } from "../../providers/errors";
import { noteImagesFor } from "../images/noteImages";
import { agentIssueText } from "../agents/agentIssueText";

/** The panel's parts a turn uses. */
export interface TurnParts {
	app: App;
	host: DiscoverHost;
	runtime: () => ChatRuntime | undefined;
	composer: Composer;
	header: ChatHeader;
	list: MessageList;
	status: StatusLine;
	context: ContextBar;
	chatModel: ChatModel;
	/** The chat's agent: a model its note names that the server lacks is its problem (absent: no agents). */
	chatAgent?: Pick<ChatAgent, "sendFailed" | "keyFailure">;
	preparer: SourcePreparer;
	/** The chat's tools switch (absent: on). */
	toolsOn?: () => boolean;
	/** A fresh chat on screen (the chats folder moved under the open one). */
	startOver: () => Promise<void>;
	/** The turn has ended. `sentFrom`: the chat it began in; `replace`: its chat was deleted meanwhile. */
	turnEnded: (ended: { sentFrom: string | undefined; replace: boolean }) => Promise<void>;
}

export class TurnFlow {
	sending = false;
	private sendingSession: string | undefined;
	private stopController: AbortController | undefined;
	/** The chat was deleted while it was answering: a new one replaces it when the turn ends. */
	private replaceAfterTurn = false;
	/** The prompt to pick a model, while it is on screen. */
	private modelPrompt: HTMLElement | undefined;

	constructor(private readonly parts: TurnParts) {}

	/** The settings now name a model: the prompt to pick one goes. */
	settingsChanged(): void {
		if (modelMissing({ model: this.parts.chatModel.current })) return;
		this.modelPrompt?.remove();
		this.modelPrompt = undefined;
	}

	/** The chat on screen was deleted while answering: stop, and start afresh once the turn has ended. */
	stopAndReplace(): void {
		this.replaceAfterTurn = true;
		this.stop();
	}

	async send(turn: Turn): Promise<void> {
		const runtime = this.parts.runtime();
		if (!runtime || this.sending || runtime.chat.busy) return;
		this.modelPrompt?.remove();
		this.modelPrompt = undefined;
		// The chat's own model counts (picked in the header, or saved with the chat), else the settings' one.
		if (modelMissing({ model: this.parts.chatModel.current })) {
			// Nothing is sent or saved, and the input (or the edit box) keeps the text.
			this.returnUnsent(turn);
			this.askForModel();
			return;
		}
		this.sending = true;
		this.parts.composer.setBusy(true);
		this.parts.header.setBusy(true);
		this.parts.list.clearError();
		if (turn.fromInput) this.parts.composer.setValue("", false);
		const controller = new AbortController();
		const options: SendOptions = {
			includeHistory: turn.includeHistory,
			signal: controller.signal,
			onToken: (d) => this.onToken(d),
			onThinking: (d) => this.onThinking(d),
			onTextRetracted: () => this.parts.list.retractAnswer(),
		};
		// Tools off for this chat, or a slash command: none are offered.
		if (turn.tools === false || this.parts.toolsOn?.() === false) options.tools = false;
		if (turn.images !== undefined) options.images = turn.images;
		// Stop works from the first moment the button shows it, also while settings and note load.
		this.stopController = controller;
		try {
			const sync = await runtime.syncSettings();
			if (sync?.chatLeftBehind) {
				// The open chat stays in the old folder: start afresh there, and let the person resend.
				if (turn.fromInput && this.parts.composer.value === "") this.parts.composer.setValue(turn.text);
				if (turn.fromInput && turn.images) this.parts.composer.images?.restore(turn.images);
				await this.parts.startOver();
				// After the switch: an edit's message is in the chat left behind, so its text goes to the input.
				this.returnUnsent(turn);
				const { from, to } = sync.chatLeftBehind;
				this.parts.list.showNote(t("panel.chatsFolderMoved", { to, from }));
				return;
			}
			// A command about the whole note never sends the attached selection, so never uses it up.
			const attachment = turn.withContext && !turn.wholeNote ? this.parts.context.attachment : undefined;
			if (turn.withContext) options.sources = await this.parts.context.sourcesFor(turn.wholeNote, turn.text);
			// Behind a setting: the images the note (or selection) embeds go with the message too.
			if (turn.withContext && this.parts.host.settings.sendNoteImages) options.images = [...(turn.images ?? []), ...(await noteImagesFor(this.parts.app, options.sources ?? []))];
			if (controller.signal.aborted) {
				// Stopped before anything went out: the question goes back into the input, unsent.
				if (turn.fromInput && !turn.wholeNote && this.parts.composer.value === "") this.parts.composer.setValue(turn.text);
				if (turn.fromInput && turn.images) this.parts.composer.images?.restore(turn.images);
				this.returnUnsent(turn);
				return;
			}
			this.sendingSession = runtime.chat.sessionId;
			this.parts.status.set(t("status.waiting"));
			const answer = await (turn.run ? turn.run(runtime.chat, options) : runtime.chat.sendMessage(turn.text, options));
			this.parts.list.upsert(answer);
			// The attached selection has had its answer.
			this.parts.context.detachSelection(attachment);
		} catch (err) {
			await this.onSendFailed(err, turn, controller.signal.aborted);
		} finally {
			this.stopController = undefined;
			this.sending = false;
			this.parts.composer.setBusy(false);
			this.parts.header.setBusy(false);
			this.parts.status.set("");
			// The answer may have recalibrated the estimator: the next send's prices are made ahead too.
			this.parts.preparer.again();
			const replace = this.replaceAfterTurn;
			this.replaceAfterTurn = false;
			await this.parts.turnEnded({ sentFrom: this.sendingSession, replace });
		}
	}

	private askForModel(): void {
		this.modelPrompt = this.parts.list.showOffer(MODEL_NEEDED.text, MODEL_NEEDED.action, () =>
			Promise.resolve(openPluginSettings(this.parts.app, this.parts.host.manifest?.id) ? MODEL_NEEDED.opened : MODEL_NEEDED.noWindow),
		);
	}

	stop(): void {
		// A permission prompt still open is a denial: Stop decides nothing else.
		this.parts.list.toolCards.denyPending();
		this.stopController?.abort();
		this.parts.runtime()?.chat.cancel();
	}

	private onToken(delta: string): void {
		if (!this.parts.list.isStreaming) this.parts.list.startStreaming();
		// The caret at the end of the text shows where it grows; the line says what is happening.
		this.parts.status.set(t("status.writing"));
		this.parts.list.appendToken(delta);
	}

	private onThinking(delta: string): void {
		if (!this.parts.list.isStreaming) this.parts.list.startStreaming();
		// The thinking block above the answer says "Thinking…": the status line would say it twice.
		this.parts.status.set("");
		this.parts.list.appendThinking(delta);
	}

	private async onSendFailed(err: unknown, turn: Turn, aborted: boolean): Promise<void> {
		this.parts.list.endStreaming({ stopped: aborted });
		if (aborted) {
			// Stopped before the question was saved: it goes back into the input, unsent.
			const messages = this.parts.runtime()?.chat.messages ?? [];
			const last = messages[messages.length - 1];
			const recorded = last?.role === "user" && last.content === turn.text;
			if (!recorded && turn.fromInput && !turn.wholeNote && this.parts.composer.value === "") this.parts.composer.setValue(turn.text);
			if (!recorded && turn.fromInput && turn.images) this.parts.composer.images?.restore(turn.images);
			if (!recorded) this.returnUnsent(turn);
			return;
		}
		// The model cannot read images: they stay attached, to send again with another model.
		if (isImagesUnsupported(err) && turn.images) this.parts.composer.images?.restore(turn.images);
		const model = this.parts.chatModel.current;
		const scene = { list: this.parts.list, composer: this.parts.composer, messages: this.parts.runtime()?.chat.messages ?? [], adapter: this.parts.runtime()?.adapter() };
		const failed = { err, text: turn.text, wholeNote: turn.wholeNote || turn.onRecord === true, retry: () => void this.send(retryTurn(turn)), giveBack: turn.giveBack ? () => this.returnUnsent(turn) : undefined };
		// The model came from the agent's note: the message names the note and the field, and the
		// next send (Retry too) goes to the default agent.
		const issue = await this.parts.chatAgent?.sendFailed(err, model);
		// An agent whose server is not the settings' one got no key: the message names the note and `secret`.
		const keyDetail = issue ? undefined : this.parts.chatAgent?.keyFailure(err);
		showTurnFailure(scene, issue ? { ...failed, detail: t("agents.fallback", { issue: agentIssueText(issue) }) } : keyDetail ? { ...failed, detail: keyDetail } : failed);
	}

	/**
	 * A turn's text that was never saved goes back where it was written (an edit: its box); when
	 * that place is gone (the chat changed, the panel closed) the input takes it, ahead of any draft.
	 */
	private returnUnsent(turn: Turn): void {
		if (!turn.giveBack || turn.giveBack(turn.text)) return;
		const draft = this.parts.composer.value;
		if (draft !== turn.text) this.parts.composer.setValue(draft.trim() === "" ? turn.text : `${turn.text}\n\n${draft}`, false);
	}
}
