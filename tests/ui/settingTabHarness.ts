// The settings tab on the real plugin, shown as Obsidian shows it, with finders for its rows: the
// shared setup of the settings tests. The tab is hidden and detached after the test that opened it
// (registered per test: a hook at this module's top would run only for the first file to import it,
// since files share their worker's modules).
import { onTestFinished } from "vitest";
import { asObsidianApp, flush, loadPlugin, showSettingTab, type App } from "../obsidian/harness";
import DiscoverPlugin from "../../src/main";
import { DiscoverSettingTab } from "../../src/ui/settings/SettingTab";
import type { SettingsAdapterFactory } from "../../src/ui/settings/settingsProvider";

const offline: SettingsAdapterFactory = () => Promise.reject(new Error("offline"));

export async function openSettingTab(opts: { data?: unknown; app?: App; makeAdapter?: SettingsAdapterFactory } = {}) {
	const { plugin, app } = await loadPlugin(DiscoverPlugin, { data: opts.data ?? {}, ...(opts.app ? { app: opts.app } : {}) });
	const settingsTab = new DiscoverSettingTab(asObsidianApp(app), plugin, opts.makeAdapter ?? offline);
	onTestFinished(() => {
		settingsTab.hide();
		settingsTab.containerEl.detach();
	});
	document.body.appendChild(settingsTab.containerEl);
	showSettingTab(settingsTab);
	await flush();
	const el = settingsTab.containerEl;
	const row = (name: string): HTMLElement => {
		const found = el.findAll(".setting-item").find((s) => s.find(".setting-item-name")?.getText() === name);
		if (!found) throw new Error(`No setting named ${name}`);
		return found;
	};
	const messageOf = (name: string): string => {
		const m = row(name).find(".discover-chat-setting-message");
		return m && !m.hasClass("discover-chat-hidden") ? m.getText() : "";
	};
	return { plugin, app, tab: settingsTab, el, row, messageOf };
}
