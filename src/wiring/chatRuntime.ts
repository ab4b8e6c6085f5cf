// Builds the engine for the panel. Loaded with a dynamic import when the panel first opens, so
// none of this runs during the plugin's onload.
import { ChatService } from "../chat/ChatService";
import type { ChatSettings } from "../core/types";
import type { DiscoverSettings } from "../settings/settings";
import { imageRuleFor } from "../providers/imageRule";
import { imageForSend } from "../ui/images/imageForSend";
import type { ProviderAdapter } from "../providers/types";
import { ObsidianFileStore } from "./obsidianStore";
import { SessionManager } from "../sessions/SessionManager";
import { createPluginAdapter, readApiKey, type AdapterSettings } from "./adapterFactory";
import type { Agent } from "../agents/agent";
import { serverFor } from "../settings/serverFor";
import { withTemperature } from "../providers/withTemperature";
import { agentGrants } from "./agentGrants";
import { budgetFor } from "../settings/budgetFor";
import { persistedCalibration } from "./calibrationStore";
import { normalizePath } from "obsidian";
import { pluginSourceRefStore } from "./sourceRefStore";
import { preparePassages } from "../context/passageCache";
import type { ChatRuntime, DiscoverHost, SettingsSync } from "../ui/host";
import type { ChatEvent } from "../ui/ports";
import type { PanelHooks } from "../ui/toolsPort";
import { createPanelTools } from "./chatTools";

/**
 * The engine's settings: the budget of the chat's model (its own, over the general one), and the
 * agent's instructions as the system prompt (an agent without any keeps the settings' prompt).
 */
function chatSettingsOf(s: DiscoverSettings, model: string, agent?: Agent): ChatSettings {
	return {
		...budgetFor(s, model),
		systemPrompt: agent !== undefined && agent.instructions.trim() !== "" ? agent.instructions : s.systemPrompt,
		imageTokens: imageRuleFor(s.provider, s.ollamaImageTokens),
	};
}

/** Work between two yields while a source is prepared (each task stays well under 50 ms). */
const PREPARE_SLICE_MS = 8;
const nextTask = (): Promise<void> => new Promise((resolve) => window.setTimeout(resolve, 0));

/** What decides which adapter to build, including the key's value (a key replaced under the same name). */
function adapterKey(host: DiscoverHost, s: AdapterSettings): string {
	return JSON.stringify([s.provider, s.baseUrl, s.model, s.apiKeySecret, readApiKey(host.app, s) ?? ""]);
}

/**
 * The adapter settings for `model` and the chat's agent: an agent naming another provider than the
 * settings' uses that provider's usual address (the settings hold one server).
 */
function adapterSettingsFor(s: DiscoverSettings, model: string, agent: Agent | undefined): AdapterSettings {
	return { ...serverFor(s, agent?.provider), model, apiKeySecret: s.apiKeySecret };
}

export async function createChatRuntime(host: DiscoverHost, onEvent: (e: ChatEvent) => void, panel?: PanelHooks): Promise<ChatRuntime> {
	const store = new ObsidianFileStore(host.app.vault.adapter, host.settings.sessionsFolder);
	const sessions = new SessionManager(store, { onWarning: (message, notice) => onEvent({ type: "warning", message, ...notice }) });
	// Learned from the provider's token counts; survives restarts in settings.calibration.
	const { calibration, flush: saveCalibration } = persistedCalibration(host);
	// The model the open chat picked in the header; undefined follows the agent's, then the settings' model.
	let chosenModel: string | undefined;
	// The open chat's agent: its instructions, provider, model and temperature.
	let agent: Agent | undefined;
	const model = (): string => chosenModel ?? agent?.model ?? host.settings.model;
	const adapterSettings = (): AdapterSettings => adapterSettingsFor(host.settings, model(), agent);
	const build = async (): Promise<ProviderAdapter> => withTemperature(await createPluginAdapter(host.app, adapterSettings()), () => agent?.temperature);
	let adapter: ProviderAdapter = await build();
	let key = adapterKey(host, adapterSettings());
	/** Rebuilds the adapter when what it depends on changed (cheap when nothing did). */
	const followSettings = async (): Promise<void> => {
		const next = adapterKey(host, adapterSettings());
		if (next === key) return;
		adapter = await build();
		key = next;
		chat.setAdapter(adapter, model());
	};
	let folder = host.settings.sessionsFolder;
	// The vault tools ask about a call in the chat on screen when it is made.
	// The open chat's agent: its writes run unasked only while the person approved it, and only in its
	// writeFolders. Until the agents' approval store is wired here, no agent counts as approved (asks).
	const grants = agentGrants(() => ({ chatId: chat.sessionId, agent, approved: false }));
	const tools = createPanelTools(host, () => chat.sessionId, panel?.ask, grants);
	const chat = new ChatService({
		adapter,
		sessions,
		settings: chatSettingsOf(host.settings, model()),
		model: model(),
		calibration,
		onEvent,
		tools: tools.tools,
		approve: tools.approve,
		// Attached images are vault files (the chats folder's attachments), read for each send.
		// An image embedded in a note is scaled as it is read; the composer's attachments already were.
		readImage: (path) => imageForSend(host.app, path),
	});
	const manifest = host.manifest;
	const dir = manifest ? normalizePath(manifest.dir ?? `${host.app.vault.configDir}/plugins/${manifest.id}`) : undefined;
	return {
		chat,
		sessions,
		sourceRefs: dir === undefined ? undefined : pluginSourceRefStore(host.app.vault.adapter, dir),
		adapter: () => adapter,
		tools,
		agentGrants: grants,
		close: saveCalibration,
		async prepareSource(id, text, name) {
			await preparePassages(id, text, name, nextTask, { sliceMs: PREPARE_SLICE_MS, estimate: chat.sourceEstimator() });
		},
		listModels: async (signal, provider) => (await createPluginAdapter(host.app, { ...host.settings, ...serverFor(host.settings, provider) })).listModels(signal),
		async useModel(next) {
			chosenModel = next?.trim() || undefined;
			chat.updateSettings(chatSettingsOf(host.settings, model(), agent));
			await followSettings();
		},
		async useAgent(next) {
			agent = next;
			chat.updateSettings(chatSettingsOf(host.settings, model(), agent));
			await followSettings();
		},
		async syncSettings(): Promise<SettingsSync> {
			// Settings may change in the settings tab while the panel is open: follow them on each send.
			chat.updateSettings(chatSettingsOf(host.settings, model(), agent));
			const result: SettingsSync = {};
			if (host.settings.sessionsFolder !== folder) {
				const from = folder;
				folder = host.settings.sessionsFolder;
				store.setRoot(folder);
				// Sessions cached from the old folder must not answer for the new one.
				await sessions.clearCache();
				const open = chat.sessionId;
				if (open !== undefined && !(await sessions.list()).some((s) => s.id === open)) {
					result.chatLeftBehind = { from, to: folder };
				}
			}
			await followSettings();
			return result;
		},
	};
}
