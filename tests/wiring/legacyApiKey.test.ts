// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { createTestApp, loadPlugin, readPluginDataText } from "../obsidian/harness";
import DiscoverPlugin from "../../src/main";

describe("a plaintext API key from old settings", () => {
	it("moves into secret storage and leaves data.json", async () => {
		const { plugin, app } = await loadPlugin(DiscoverPlugin, { data: { apiKey: "sk-old-key", maxPromptTokens: 16384 } });
		const name = plugin.settings.apiKeySecret;
		expect(app.secretStorage.getSecret(name)).toBe("sk-old-key");
		expect(await readPluginDataText(app)).not.toContain("sk-old-key");
		expect(plugin.settings.maxPromptTokens).toBe(16384);
	});

	it("is never lost when secret storage refuses it, even after later saves", async () => {
		const app = await createTestApp();
		app.secretStorage.setSecret = () => {
			throw new Error("Secret storage is locked");
		};
		const { plugin } = await loadPlugin(DiscoverPlugin, { app, data: { apiKey: "sk-old-key" } });
		plugin.settings.recentMessagesToKeep = 8;
		await plugin.saveSettings();
		const saved = JSON.parse((await readPluginDataText(app)) ?? "{}") as Record<string, unknown>;
		expect(saved.apiKey).toBe("sk-old-key");
		expect(saved.recentMessagesToKeep).toBe(8);
	});
});
