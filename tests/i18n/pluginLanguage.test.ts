// @vitest-environment happy-dom
// The plugin reads Obsidian's language when it loads: its commands, ribbon and notices are then in
// that language (English where the catalogue lacks a text).
import { afterEach, describe, expect, it } from "vitest";
import DiscoverPlugin from "../../src/main";
import { currentLanguage, setLanguage } from "../../src/i18n";
import { CATALOGUES } from "../../src/i18n/catalogues";
import { clearNotices, createTestApp, loadPlugin, notices, ribbonIcon, setAppLanguage, unloadPlugin, writePluginData } from "../obsidian/harness";

const saved = CATALOGUES["zh-CN"];

afterEach(() => {
	CATALOGUES["zh-CN"] = saved;
	setAppLanguage("en");
	setLanguage("en");
	clearNotices();
});

describe("the plugin's language", () => {
	it("follows getLanguage(): commands, the ribbon and load notices in Simplified Chinese when Obsidian is set to 'zh'", async () => {
		CATALOGUES["zh-CN"] = { "command.openChat": "打开聊天", "plugin.notice": "Discover：{text}", "plugin.settingsUnreadable": "无法读取设置文件，正在使用默认值。" };
		setAppLanguage("zh");
		const app = await createTestApp();
		const adapter = app.vault.adapter;
		await writePluginData(app, {});
		// A data.json that cannot be read: the notice that says so.
		const read = adapter.read.bind(adapter);
		adapter.read = (path: string) => (path.endsWith("data.json") ? Promise.reject(new Error("EIO")) : read(path));
		const { plugin } = await loadPlugin(DiscoverPlugin, { app });
		expect(currentLanguage()).toBe("zh-CN");
		expect(app.commands.commands.get("discover-chat:open-chat")?.name).toBe("Discover: 打开聊天");
		expect(ribbonIcon(app, "打开聊天")).toBeTruthy();
		expect(notices()).toEqual(["Discover：无法读取设置文件，正在使用默认值。"]);
		// Not yet translated: English.
		expect(app.commands.commands.get("discover-chat:new-chat")?.name).toBe("Discover: New chat");
		unloadPlugin(plugin);
	});

	it("writes the default agent's name in that language; its file keeps the name Default.md", async () => {
		setAppLanguage("de");
		const { plugin, app } = await loadPlugin(DiscoverPlugin);
		const { agents } = await plugin.agents.list();
		expect(agents.map((a) => [a.path, a.name])).toEqual([["Discover/Agents/Default.md", "Standard"]]);
		expect(await app.vault.adapter.read("Discover/Agents/Default.md")).toMatch(/^---\nname: Standard\n/);
		unloadPlugin(plugin);
	});

	it("is English for a language Discover does not ship", async () => {
		setAppLanguage("it");
		const { plugin, app } = await loadPlugin(DiscoverPlugin);
		expect(currentLanguage()).toBe("en");
		expect(app.commands.commands.get("discover-chat:open-chat")?.name).toBe("Discover: Open chat");
		unloadPlugin(plugin);
	});
});
