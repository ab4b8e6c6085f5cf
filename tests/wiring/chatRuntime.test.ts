// @vitest-environment happy-dom
// The panel's engine as the plugin builds it (ObsidianFileStore on the vault, the plugin's adapter
// factory), following settings changed while the panel is open.
import { describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp, openNote } from "../obsidian/harness";
import { until } from "../support/chatHarness";
import { openEnginePanel } from "../ui/enginePanel";
import { passageCacheCounts, passagesOf } from "../../src/context/passageCache";
import { StubAdapter } from "../support/stubAdapter";
import { createChatRuntime } from "../../src/wiring/chatRuntime";
import type { ChatService } from "../../src/chat/ChatService";
import type { ChatRuntime, DiscoverHost } from "../../src/ui/host";
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

describe("the panel prepares its large sources ahead of a send", () => {
	it("a 1 MB active note is cut and priced in slices before the send, which finds it ready (no analysis in the send)", async () => {
		const sections = Array.from({ length: 2600 }, (_, i) => `## Section ${i}\n\nThe harbour log for day ${i} lists boats, tides and the weather in some detail.\n`);
		const big = `# Log\n\n${sections.join("\n").repeat(4)}\n## Last\n\nThe lighthouse key is under the blue stone.\n`;
		expect(big.length).toBeGreaterThan(1_000_000);
		const app = await createTestApp({ files: { "Notes/Log.md": big } });
		await openNote(app, "Notes/Log.md");
		const host: DiscoverHost = { app: asObsidianApp(app), settings: testSettings({ includeActiveNote: true }), saveSettings: () => Promise.resolve() };
		const adapter = new StubAdapter({ reply: "Under the blue stone." });
		let runtime: ChatRuntime | undefined;
		const prepared: string[] = [];
		const { leaf, send, idle } = await openEnginePanel(app, host, async (h, onEvent) => {
			const built = await createChatRuntime(h, onEvent);
			built.chat.setAdapter(adapter);
			const prepare = built.prepareSource?.bind(built);
			built.prepareSource = async (id, text, name) => {
				await prepare?.(id, text, name);
				prepared.push(id);
			};
			runtime = built;
			return built;
		});
		try {
			await until(() => prepared.includes("Notes/Log.md"), "the active note to be prepared");
			const before = passageCacheCounts();
			await send("Where is the lighthouse key?");
			await idle();
			const after = passageCacheCounts();
			expect(after.misses).toBe(before.misses);
			expect(after.hits).toBeGreaterThan(before.hits);
			// Priced with the send's own estimator too: the entry holds its costs.
			expect(passagesOf("Notes/Log.md", big, "Log").costs.has((runtime!.chat as ChatService).sourceEstimator())).toBe(true);
			// This turn's sources go with the person's message, the last one of the request.
			expect(adapter.chatRequests.at(-1)?.messages.at(-1)?.content).toContain("lighthouse key is under the blue stone");
		} finally {
			leaf.detach();
		}
	}, 120_000); // generous: under load the slices alone take 30 s on 2 shared cores; nothing here is a timing check
});

describe("the prompt layout follows the chat's server (settings/promptLayout.ts)", () => {
	// A note about four times an 8k window: every turn sends only part of it.
	const note = Array.from({ length: 400 }, (_, i) => `## Entry ${i}\n\nThe harbour ledger lists cargo ${i}, its crew and the weather of that day.`).join("\n\n");
	const questions = ["What is in entry 12?", "And entry 250?", "Which crew signed entry 30?"];

	async function requests(settings: object): Promise<{ role: string; content: string }[][]> {
		const { runtime } = await runtimeWith({ maxPromptTokens: 8192, reservedResponseTokens: 512, ...settings });
		const stub = new StubAdapter({ reply: "Noted." });
		runtime.chat.setAdapter(stub);
		for (const q of questions) await runtime.chat.sendMessage(q, { context: note, contextName: "Ledger.md" });
		return stub.chatRequests.map((r) => r.messages);
	}
	const repeats = (before: { role: string; content: string }[], after: { role: string; content: string }[]): boolean =>
		before.every((m, i) => after[i]?.role === m.role && after[i]?.content === m.content);

	it("automatic on a local server, and 'Answer faster' anywhere: each follow-up repeats the previous request as its prefix", async () => {
		for (const settings of [{ provider: "ollama", baseUrl: "http://127.0.0.1:11434", promptLayout: "auto" }, { provider: "openai", baseUrl: "https://api.openai.com/v1", promptLayout: "cache" }]) {
			const sent = await requests(settings);
			expect(sent).toHaveLength(3);
			expect(repeats(sent[0]!, sent[1]!), JSON.stringify(settings)).toBe(true);
			expect(repeats(sent[1]!, sent[2]!), JSON.stringify(settings)).toBe(true);
		}
	});

	it("automatic on a hosted server, and 'Use the whole window' anywhere: each turn refills the window (the first turn's sources are not repeated)", async () => {
		for (const settings of [{ provider: "openai", baseUrl: "https://api.openai.com/v1", promptLayout: "auto" }, { provider: "ollama", baseUrl: "http://127.0.0.1:11434", promptLayout: "window" }]) {
			const sent = await requests(settings);
			expect(sent).toHaveLength(3);
			expect(repeats(sent[0]!, sent[1]!), JSON.stringify(settings)).toBe(false);
		}
	});
});
