// Builds the engine for the panel. Loaded with a dynamic import when the panel first opens, so
// none of this runs during the plugin's onload.
import { ChatService } from "../chat/ChatService";
import type { ChatSettings } from "../core/types";
import type { DiscoverSettings } from "../settings/settings";
import { imageRuleFor } from "../providers/imageRule";
import { imageForSend } from "../ui/images/imageForSend";
import { attachToolImage } from "../ui/images/attachFile";
import type { ProviderAdapter } from "../providers/types";
import { ObsidianFileStore } from "./obsidianStore";
import { SessionManager } from "../sessions/SessionManager";
import { createPluginAdapter, readApiKey, serverKeyFor, type AdapterSettings } from "./adapterFactory";
import type { Agent } from "../agents/agent";
import type { AgentServerFields } from "../settings/keyBinding";
import { withTemperature } from "../providers/withTemperature";
import { agentGrants } from "./agentGrants";
import { agentMcpServers, approvalState } from "../agents/agentTrust";
import { lazyMcpSource } from "./mcpSource";
import { withElicitation } from "./mcpElicit";
import { budgetFor } from "../settings/budgetFor";
import { persistedCalibration } from "./calibrationStore";
import { earlierSourcesFor } from "../settings/promptLayout";
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
export function chatSettingsOf(s: DiscoverSettings, model: string, agent?: Agent): ChatSettings {
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
function adapterKey(host: DiscoverHost, s: AdapterSettings, agent: AgentServerFields | undefined): string {
	const server = serverKeyFor(s, agent);
	return JSON.stringify([server.provider, server.baseUrl, s.model, server.secret, readApiKey(host.app, s, agent) ?? ""]);
}

/** The fields of an agent that choose its server and key (keyBinding's keyFor decides from them). */
export function agentServer(agent: Agent | undefined): AgentServerFields | undefined {
	return agent && { path: agent.path, provider: agent.provider, baseUrl: agent.baseUrl, secret: agent.secret };
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
	// The settings' server and key, with the chat's model; the agent's server fields go beside them
	// (keyFor picks the server, and the key only when it is that server's own).
	const adapterSettings = (): AdapterSettings => ({ provider: host.settings.provider, baseUrl: host.settings.baseUrl, model: model(), apiKeySecret: host.settings.apiKeySecret });
	const build = async (): Promise<ProviderAdapter> => withTemperature(await createPluginAdapter(host.app, adapterSettings(), agentServer(agent)), () => agent?.temperature);
	let adapter: ProviderAdapter = await build();
	let key = adapterKey(host, adapterSettings(), agentServer(agent));
	/** Rebuilds the adapter when what it depends on changed (cheap when nothing did). */
	const followSettings = async (): Promise<void> => {
		const next = adapterKey(host, adapterSettings(), agentServer(agent));
		if (next === key) return;
		adapter = await build();
		key = next;
		chat.setAdapter(adapter, model());
	};
	let folder = host.settings.sessionsFolder;
	// The vault tools ask about a call in the chat on screen when it is made.
	// The open chat's agent: its writes run unasked only while the person approved it, and only in its
	// writeFolders. Approval is checked at each call against the digest the person approved (a note
	// changed since, by sync or otherwise, is not approved: its writes ask).
	const approved = (a: Agent | undefined): boolean => a !== undefined && approvalState(a, host.settings.agentApprovals ?? []).state === "approved";
	const grants = agentGrants(() => ({ chatId: chat.sessionId, agent, approved: approved(agent) }));
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
		// An image a tool's result carries (an MCP server's screenshot or chart), once the result's
		// share has room for it: scaled and saved beside the attached ones, sent after the results.
		saveToolImage: (image, name) => attachToolImage(host.app, host.settings.sessionsFolder, image, name),
		// "Prompt layout" (settings/promptLayout.ts): asked as each turn starts, for the chat's server.
		earlierSources: () => earlierSourcesFor(host.settings.promptLayout, serverKeyFor(adapterSettings(), agentServer(agent))),
		// MCP servers through the plugin's hub (loaded when a turn first needs one). An approved agent's
		// `mcp:` names them; an agent not approved as it is reaches none; without an agent (or one naming
		// none), the servers turned on in settings.
		// A server's requests for values during a call are shown on that call's card (panel.elicit).
		...(host.mcp !== undefined ? { mcpTools: withElicitation(lazyMcpSource(host.mcp, () => host.settings), panel?.elicit), mcpServers: () => agentMcpServers(agent, approved(agent)) } : {}),
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
		listModels: async (signal, server) => (await createPluginAdapter(host.app, host.settings, server)).listModels(signal),
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
