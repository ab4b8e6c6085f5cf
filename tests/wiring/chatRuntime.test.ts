// @vitest-environment happy-dom
// The panel's engine as the plugin builds it (ObsidianFileStore on the vault, the plugin's adapter
// factory), following settings changed while the panel is open.
import { describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp } from "../obsidian/harness";
import { StubAdapter } from "../support/stubAdapter";
import { createChatRuntime } from "../../src/wiring/chatRuntime";
import type { DiscoverHost } from "../../src/ui/host";
import { testSettings } from "../ui/fakes";

async function runtimeWith(settings = {}) {
	const app = await createTestApp();
	const host: DiscoverHost = { app: asObsidianApp(app), settings: testSettings(settings), saveSettings: () => Promise.resolve() };
	const runtime = await createChatRuntime(host, () => undefined);
	runtime.chat.setAdapter(new StubAdapter({ reply: "Noted." }));
	return { app, host, runtime };
}

describe("the panel's engine follows the settings", () => {
	it("a new chats folder: history lists the new folder, the open chat is reported as left behind, nothing is moved or lost", async () => {
		const { app, host, runtime } = await runtimeWith({ sessionsFolder: "Old/Chats" });
		await runtime.chat.newSession();
		await runtime.chat.sendMessage("Remember the blue folder.");
		const id = runtime.chat.sessionId!;
		expect(await app.vault.adapter.exists(`Old/Chats/sessions/${id}.jsonl`)).toBe(true);

		host.settings.sessionsFolder = "New/Chats";
		const sync = await runtime.syncSettings();
		expect(sync).toEqual({ chatLeftBehind: { from: "Old/Chats", to: "New/Chats" } });
		expect(await runtime.sessions.list()).toEqual([]);
		expect(await app.vault.adapter.read(`Old/Chats/sessions/${id}.jsonl`)).toContain("Remember the blue folder.");

		// A new chat in the new folder works end to end.
		await runtime.chat.newSession();
		await runtime.chat.sendMessage("Hello again.");
		expect((await runtime.sessions.list()).map((s) => s.id)).toEqual([runtime.chat.sessionId]);
		expect(await runtime.syncSettings()).toEqual({});
	});

	it("a new folder that already holds the open chat (a folder renamed back) leaves it open", async () => {
		const { host, runtime } = await runtimeWith({ sessionsFolder: "A" });
		await runtime.chat.newSession();
		await runtime.chat.sendMessage("First.");
		host.settings.sessionsFolder = "B";
		await runtime.syncSettings();
		host.settings.sessionsFolder = "A";
		expect(await runtime.syncSettings()).toEqual({});
	});

	it("a key replaced under the same secret name builds a new adapter", async () => {
		const { app, host, runtime } = await runtimeWith({ provider: "openai", baseUrl: "http://127.0.0.1:9/v1", apiKeySecret: "discover-key" });
		app.secretStorage.setSecret("discover-key", "sk-first");
		await runtime.syncSettings();
		const before = runtime.adapter();
		await runtime.syncSettings();
		expect(runtime.adapter()).toBe(before);
		app.secretStorage.setSecret("discover-key", "sk-second");
		await runtime.syncSettings();
		expect(runtime.adapter()).not.toBe(before);
		expect(host.settings.apiKeySecret).toBe("discover-key");
	});
});
