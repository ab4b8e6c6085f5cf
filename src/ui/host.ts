// What the panel needs from the plugin, as a structural type: the plugin satisfies it, and tests
// build one without a plugin. The view never stores itself on the plugin.
import type { McpHubLoader } from "./mcpPort";
import type { App } from "obsidian";
import type { DiscoverSettings } from "../settings/settings";
import type { Agent } from "../agents/agent";
import type { AgentServerFields } from "../settings/keyBinding";
import type { AgentsPort } from "./agents/agentsPort";
import type { AgentGrants } from "../tools/permissions";
import type { ChatEvent, ChatPort, DiagnosableAdapter, ModelInfo, SessionsPort, SourceRefStore, VaultSearchPort } from "./ports";
import type { PanelHooks, ToolsPort } from "./toolsPort";

/** The plugin's settings, as saved in data.json. */
export type PanelSettings = DiscoverSettings;

export interface DiscoverHost {
	readonly app: App;
	readonly settings: PanelSettings;
	/** The plugin's manifest: its id names the plugin's settings tab. */
	readonly manifest?: { readonly id: string; readonly dir?: string };
	saveSettings(): Promise<void>;
	/** The vault index for `@vault`; absent when the plugin offers none. */
	readonly vaultSearch?: VaultSearchPort;
	/** The agent notes; absent: chats use the settings' prompt and model. */
	readonly agents?: AgentsPort;
	/** The MCP servers' hub, loaded on first use; absent: chats offer no MCP tools. */
	readonly mcp?: McpHubLoader;
}

export interface SettingsSync {
	/** The chats folder changed and the open chat is not in the new one: a new chat must start. */
	chatLeftBehind?: { from: string; to: string };
}

/** The engine as the panel uses it, built when the panel first opens. */
export interface ChatRuntime {
	chat: ChatPort;
	sessions: SessionsPort;
	/**
	 * Brings the engine up to date with the settings (cheap when nothing changed). Reports when the
	 * chats folder changed under an open chat, which stays in the old folder.
	 */
	syncSettings(): Promise<SettingsSync | void>;
	/** The adapter in use, for a connection diagnosis after a failure. */
	adapter(): DiagnosableAdapter | undefined;
	/**
	 * The models the server offers (asked afresh on each call: the panel caches the list). Absent
	 * when the engine cannot list them; the header then offers only the model in use. `server`: an
	 * agent's server fields, listed at the server its chats would use, with the key keyFor allows
	 * there (settings/keyBinding).
	 */
	listModels?(signal?: AbortSignal, server?: AgentServerFields): Promise<ModelInfo[]>;
	/**
	 * Uses `model` for the next turns instead of the settings' model (undefined: back to the
	 * settings' model). The settings are not changed: they hold the default for new chats.
	 */
	useModel?(model: string | undefined): Promise<void>;
	/**
	 * Uses `agent` for the next turns: its instructions as the system prompt, its provider, model
	 * (unless the chat picked one) and temperature. Undefined: the settings' prompt and model.
	 */
	useAgent?(agent: Agent | undefined): Promise<void>;
	/**
	 * Cuts and analyzes a note source ahead of a send, a few milliseconds at a time (yielding to the
	 * app between slices), with the estimator the send will use; resolves when it is ready. Absent:
	 * the send does that work itself.
	 */
	prepareSource?(id: string, text: string, name: string): Promise<void>;
	/** The open chat's agent for the permission rules: its writes run unasked only while approved and inside its writeFolders. */
	agentGrants?: AgentGrants;
	/** Where the chat's attached sources are kept; absent: they last while the panel is open. */
	sourceRefs?: SourceRefStore;
	/** The vault tools' undo and per-chat grants; absent when the engine offers no tools. */
	tools?: ToolsPort;
	/** Saves what is still pending (e.g. the token calibration) when the panel closes. */
	close?(): Promise<void>;
}

/** `panel`: what the view gives the engine (the permission prompt); absent in tests that need none. */
export type ChatRuntimeFactory = (host: DiscoverHost, onEvent: (e: ChatEvent) => void, panel?: PanelHooks) => Promise<ChatRuntime>;
