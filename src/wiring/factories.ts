// The plugin's engine and adapter factories, handed to the panel and the settings tab (which never
// import the wiring). Loaded on first use, so the plugin's onload stays light.
import type { ChatRuntimeFactory } from "../ui/host";
import type { SettingsAdapterFactory } from "../ui/settings/settingsProvider";

export const pluginRuntimeFactory: ChatRuntimeFactory = async (host, onEvent, panel) => (await import("./chatRuntime")).createChatRuntime(host, onEvent, panel);

export const pluginAdapterFactory: SettingsAdapterFactory = async (app, settings) => (await import("./adapterFactory")).createPluginAdapter(app, settings);
