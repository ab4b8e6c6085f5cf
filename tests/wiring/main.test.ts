// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import { changeSettingsExternally, clearNotices, closeSettingTab, createTestApp, loadPlugin, notices, openSettingTab, readPluginDataText, unloadPlugin, writePluginData } from "../obsidian/harness";
import DiscoverPlugin from "../../src/main";
import { DEFAULT_SETTINGS, SETTINGS_VERSION } from "../../src/settings/settings";
import { LEGACY_SECRET_NAME } from "../../src/settings/migration";

afterEach(() => clearNotices());

async function reload(app: Awaited<ReturnType<typeof createTestApp>>): Promise<DiscoverPlugin> {
	return (await loadPlugin(DiscoverPlugin, { app })).plugin;
}

describe("DiscoverPlugin lifecycle", () => {
	it("first run: default settings, nothing written, no notice, a settings tab", async () => {
		const { plugin, app } = await loadPlugin(DiscoverPlugin);
		expect(plugin.settings).toEqual(DEFAULT_SETTINGS);
		expect(await readPluginDataText(app)).toBeNull();
		expect(notices()).toEqual([]);
		expect(app.setting.tabs).toHaveLength(1);
		unloadPlugin(plugin);
		expect(app.setting.tabs).toHaveLength(0);
	});

	it("saveSettings writes data.json that loads back the same", async () => {
		const app = await createTestApp();
		const plugin = await reload(app);
		plugin.settings.model = "llama3.2";
		plugin.settings.maxPromptTokens = 16384;
		await plugin.saveSettings();
		unloadPlugin(plugin);
		expect((await reload(app)).settings).toMatchObject({ model: "llama3.2", maxPromptTokens: 16384 });
		expect(notices()).toEqual([]);
	});

	it("moves a plaintext API key into secret storage and out of data.json", async () => {
		const app = await createTestApp();
		await writePluginData(app, { provider: "openai", baseUrl: "https://api.openai.com/v1", apiKey: "sk-secret-abc" });
		const plugin = await reload(app);
		const name = plugin.settings.apiKeySecret;
		expect(name).not.toBe("");
		expect(app.secretStorage.getSecret(name)).toBe("sk-secret-abc");
		const saved = (await readPluginDataText(app)) ?? "";
		expect(saved).not.toContain("sk-secret-abc");
		expect(JSON.parse(saved)).toMatchObject({ apiKeySecret: name, settingsVersion: SETTINGS_VERSION, provider: "openai" });
		expect(notices().join(" ")).toMatch(/secret storage/);
	});

	it("keeps the secret the person chose when it holds another key, and the old key under a name of its own", async () => {
		const app = await createTestApp({ secrets: { "my-key": "sk-new" } });
		await writePluginData(app, { apiKey: "sk-old", apiKeySecret: "my-key" });
		const plugin = await reload(app);
		expect(plugin.settings.apiKeySecret).toBe("my-key");
		expect(app.secretStorage.getSecret("my-key")).toBe("sk-new");
		expect(app.secretStorage.listSecrets().map((id) => app.secretStorage.getSecret(id))).toContain("sk-old");
		expect(notices().join(" ")).toMatch(/kept in secret storage as “discover-api-key”; the secret you chose stays in use/);
		expect(await readPluginDataText(app)).not.toContain("sk-old");
	});

	it("never writes over a key another vault moved under the default name", async () => {
		const app = await createTestApp({ secrets: { [LEGACY_SECRET_NAME]: "sk-other-vault" } });
		await writePluginData(app, { apiKey: "sk-this-vault" });
		const plugin = await reload(app);
		expect(app.secretStorage.getSecret(LEGACY_SECRET_NAME)).toBe("sk-other-vault");
		expect(plugin.settings.apiKeySecret).not.toBe(LEGACY_SECRET_NAME);
		expect(app.secretStorage.getSecret(plugin.settings.apiKeySecret)).toBe("sk-this-vault");
	});

	it("a key secret storage refused moves at a later save, then leaves data.json", async () => {
		const app = await createTestApp();
		const setSecret = app.secretStorage.setSecret.bind(app.secretStorage);
		let locked = true;
		app.secretStorage.setSecret = (id, secret) => {
			if (locked) throw new Error("Secret storage is locked");
			setSecret(id, secret);
		};
		await writePluginData(app, { apiKey: "sk-waiting" });
		const plugin = await reload(app);
		expect(notices().join(" ")).toMatch(/could not be moved/);
		await plugin.saveSettings();
		expect(await readPluginDataText(app)).toContain("sk-waiting");
		locked = false;
		await plugin.saveSettings();
		expect(await readPluginDataText(app)).not.toContain("sk-waiting");
		expect(app.secretStorage.getSecret(plugin.settings.apiKeySecret)).toBe("sk-waiting");
	});

	it("invalid values: defaults for those fields only, one notice, fixed on disk so it shows once", async () => {
		const app = await createTestApp();
		await writePluginData(app, { ...DEFAULT_SETTINGS, maxPromptTokens: 4096, reservedResponseTokens: 9000, minRecentMessagesToKeep: 0, model: "m" });
		const plugin = await reload(app);
		expect(plugin.settings).toMatchObject({ maxPromptTokens: 4096, reservedResponseTokens: 512, minRecentMessagesToKeep: 2, model: "m" });
		expect(notices()).toHaveLength(1);
		expect(notices()[0]).toMatch(/Tokens reserved for the answer and Fewest recent messages to keep/);
		unloadPlugin(plugin);
		clearNotices();
		await reload(app);
		expect(notices()).toEqual([]);
	});

	it("settings saved by a newer version are used but not rewritten", async () => {
		const app = await createTestApp();
		const newer = JSON.stringify({ ...DEFAULT_SETTINGS, model: "m", settingsVersion: SETTINGS_VERSION + 1, futureOption: 3 });
		await writePluginData(app, newer);
		const plugin = await reload(app);
		expect(plugin.settings.model).toBe("m");
		expect(await readPluginDataText(app)).toBe(newer);
		expect(notices().join(" ")).toMatch(/newer version/);
	});

	it("saving settings from a newer version keeps the fields and version this one does not know", async () => {
		const app = await createTestApp();
		await writePluginData(app, { ...DEFAULT_SETTINGS, settingsVersion: SETTINGS_VERSION + 1, futureOption: { on: true }, apiKey: "sk-plain" });
		const plugin = await reload(app);
		plugin.settings.model = "changed-here";
		await plugin.saveSettings();
		const saved = JSON.parse((await readPluginDataText(app)) ?? "{}") as Record<string, unknown>;
		expect(saved).toMatchObject({ model: "changed-here", futureOption: { on: true }, settingsVersion: SETTINGS_VERSION + 1 });
		expect(saved).not.toHaveProperty("apiKey");
		expect(app.secretStorage.getSecret(plugin.settings.apiKeySecret)).toBe("sk-plain");
		// Current data is written as this version's, without leftovers.
		await changeSettingsExternally(app, plugin, { ...DEFAULT_SETTINGS });
		await plugin.saveSettings();
		expect(JSON.parse((await readPluginDataText(app)) ?? "{}")).not.toHaveProperty("futureOption");
	});

	it("takes settings changed by sync", async () => {
		const app = await createTestApp();
		const plugin = await reload(app);
		await changeSettingsExternally(app, plugin, { ...DEFAULT_SETTINGS, model: "from-another-device" });
		expect(plugin.settings.model).toBe("from-another-device");
	});

	it("an open settings tab shows settings changed by sync", async () => {
		const app = await createTestApp();
		const plugin = await reload(app);
		// A base URL nothing listens on: the tab's model listing fails at once, without network.
		plugin.settings.baseUrl = "http://127.0.0.1:9";
		const tab = openSettingTab(app);
		const input = (name: string): HTMLInputElement | undefined =>
			tab.containerEl.findAll(".setting-item").find((s) => s.find(".setting-item-name")?.getText() === name)?.find("input") as HTMLInputElement | undefined;
		expect(input("Context size")?.value).toBe("8192");
		await changeSettingsExternally(app, plugin, { ...DEFAULT_SETTINGS, baseUrl: "http://127.0.0.1:9", maxPromptTokens: 32768 });
		expect(input("Context size")?.value).toBe("32768");
		closeSettingTab(tab);
		await changeSettingsExternally(app, plugin, { ...DEFAULT_SETTINGS, baseUrl: "http://127.0.0.1:9", maxPromptTokens: 16384 });
		// A closed tab is not rebuilt in the background.
		expect(tab.containerEl.hasChildNodes()).toBe(false);
	});

	it("damaged data.json: defaults and a notice, the file left as it was", async () => {
		const app = await createTestApp();
		await writePluginData(app, "{ not json");
		const plugin = await reload(app);
		expect(plugin.settings).toEqual(DEFAULT_SETTINGS);
		expect(notices().join(" ")).toMatch(/could not be read/);
		expect(await readPluginDataText(app)).toBe("{ not json");
	});
});
