import { Notice } from "obsidian";
import type { ChatRuntime, DiscoverHost } from "../host";
import { cachedModels, modelListKey } from "./modelList";
import { whereModelRuns } from "./modelPlace";
import type { ModelInfo } from "../ports";
import { t } from "../../i18n";

/** What the panel shows about the model: its name and where it runs. */
export interface ModelShown {
	/** "" when none is chosen. */
	model: string;
	where: string;
}

/**
 * The model of the chat on screen. A chat keeps the model it was using (saved with the session
 * when its first message is sent or when the person picks one in the header); a chat that has
 * none yet uses the settings' model, which is the default for new chats. Picking a model here
 * never changes the settings.
 */
export class ChatModel {
	/** The open chat's own model, if it has one. */
	private chosen: string | undefined;
	/** The chat's agent's model: the default for a chat that picked none. */
	private agentModel: string | undefined;
	/** The chat whose model is saved in its file (so the first message need not save it again). */
	private savedFor: string | undefined;

	constructor(
		private readonly host: DiscoverHost,
		private readonly runtime: () => ChatRuntime | undefined,
		private readonly onChange: (shown: ModelShown) => void,
	) {}

	get current(): string {
		return this.chosen ?? this.agentModel ?? this.host.settings.model.trim();
	}

	/** The model the open chat picked for itself (saved with it, or in the header); undefined: it follows its agent's or the settings'. */
	get own(): string | undefined {
		return this.chosen;
	}

	get shown(): ModelShown {
		return { model: this.current, where: whereModelRuns(this.host.settings) };
	}

	/** A chat came on screen: `model` is the one saved with it (undefined: none). */
	async follow(sessionId: string | undefined, model: string | undefined): Promise<void> {
		this.chosen = model;
		this.savedFor = model === undefined ? undefined : sessionId;
		await this.apply();
	}

	/** The chat's agent changed: its model (undefined: none) is the chat's unless the chat picked one. */
	setAgentModel(model: string | undefined): void {
		this.agentModel = model;
		this.render();
	}

	/**
	 * `model` came from an agent note and the server does not have it: a chat that took it as its
	 * own goes back to the agent's or the settings' model. Its file keeps the name, so the chat
	 * uses it again once the model is there.
	 */
	async forget(model: string): Promise<void> {
		if (this.chosen !== model) return;
		this.chosen = undefined;
		await this.apply();
	}

	/** The person picked `model` in the header: the next turn uses it, and the chat remembers it. */
	async choose(model: string): Promise<void> {
		this.chosen = model;
		await this.apply();
		const id = this.runtime()?.chat.sessionId;
		// A chat not created yet saves its model with its first message (messageSaved).
		if (id !== undefined) await this.save(id);
	}

	/** The chat's first message was saved: the chat now remembers the model it is using. */
	async messageSaved(): Promise<void> {
		const id = this.runtime()?.chat.sessionId;
		if (id === undefined || this.savedFor === id || this.current === "") return;
		await this.save(id);
	}

	/** The server's models, from the cache unless `refresh`. */
	list(refresh: boolean): Promise<readonly ModelInfo[]> {
		const runtime = this.runtime();
		if (!runtime?.listModels) return Promise.resolve([]);
		const listModels = runtime.listModels.bind(runtime);
		return cachedModels(modelListKey(this.host.settings), () => listModels(), refresh);
	}

	/** Shows the model again (the settings' model may have changed in the settings tab). */
	render(): void {
		this.onChange(this.shown);
	}

	private async apply(): Promise<void> {
		this.render();
		try {
			await this.runtime()?.useModel?.(this.chosen);
		} catch {
			// Settings the adapter refuses: the next send syncs them again and shows why, with Retry.
		}
	}

	private async save(id: string): Promise<void> {
		const sessions = this.runtime()?.sessions;
		const model = this.current;
		if (!sessions?.setModel || model === "") return;
		try {
			await sessions.setModel(id, model);
			this.savedFor = id;
		} catch (err) {
			// The turn still uses the model; only reopening the chat later would not.
			new Notice(t("panel.modelSaveFailed", { error: err instanceof Error ? err.message : String(err) }));
		}
	}
}
