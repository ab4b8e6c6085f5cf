// @vitest-environment happy-dom
// Agents per chat in the panel, on the plugin's own engine (createChatRuntime) and agents folder
// (AgentLibrary) against a local Ollama-like server: the header's menu switches the chat's agent
// and the next request carries its instructions, model and temperature; the chat remembers its
// agent across a reload; a new chat starts with the agent used last; a broken agent note says which
// note and field, and the chat goes on with the default agent; an agent's sources go with each send.
import { beforeAll, describe, expect, it } from "vitest";
import { asObsidianApp, clearNotices, createTestApp, flush, notices, openNote, type App } from "../obsidian/harness";
import { until } from "../support/chatHarness";
import { ProviderServer } from "../support/providerServer";
import type { DiscoverHost } from "../../src/ui/host";
import { AgentLibrary } from "../../src/wiring/agentLibrary";
import { testSettings } from "./fakes";
import { approvalsOf } from "../support/agentApprovals";
import { mountRuntimePanel, runtimePanelServer, serveOllama, systemOf, type SentRequest } from "./runtimePanel";

const FOLDER = "Discover/Agents";
const DEFAULT_NOTE = `${FOLDER}/Default.md`;
const WRITER_NOTE = `${FOLDER}/Writer.md`;

const shared = runtimePanelServer();
const cleanups = shared.cleanups;
let server: ProviderServer;
beforeAll(() => {
	server = shared.server();
});

const serve = (): void => serveOllama(server, ["llama3.2", "qwen3:8b"]);

async function mount(app: App, host: DiscoverHost) {
	const panel = await mountRuntimePanel(app, host, server, cleanups);
	const headerAgent = () => panel.root.querySelector(".discover-chat-agent-name")?.textContent ?? "";
	const pickAgent = (name: string) => panel.pickFromMenu(name, headerAgent);
	const send = async (text: string): Promise<SentRequest> => (await panel.sendAndCapture(text)) as SentRequest;
	return { ...panel, headerAgent, pickAgent, send };
}

async function setup(files: Record<string, string> = {}) {
	// The person approved these agents on their review cards before (the review itself: DiscoverView.agentReview.test.ts).
	const agents = {
		[DEFAULT_NOTE]: "---\nname: Default\n---\nDEFAULT-INSTRUCTIONS: answer briefly.",
		[WRITER_NOTE]: "---\nname: Writer\nmodel: qwen3:8b\ntemperature: 0.2\n---\nWRITER-INSTRUCTIONS: answer in verse.",
		...files,
	};
	const app = await createTestApp({ files: { "Notes/Alpha.md": "# Alpha\n\nAlpha is the first note.\n", ...agents } });
	await openNote(app, "Notes/Alpha.md");
	const settings = testSettings({ provider: "ollama", baseUrl: server.url, model: "llama3.2", includeActiveNote: false, agentApprovals: approvalsOf(Object.fromEntries(Object.entries(agents).filter(([path]) => path.startsWith(`${FOLDER}/`)))) });
	const host: DiscoverHost & { saves: number } = {
		app: asObsidianApp(app),
		settings,
		saves: 0,
		saveSettings() {
			this.saves++;
			return Promise.resolve();
		},
		agents: new AgentLibrary({ app: asObsidianApp(app), settings }),
	};
	return { app, host };
}

describe("agents in the panel", () => {
	it("the header lists the agents above the models, the chat's agent checked", async () => {
		serve();
		const { app, host } = await setup();
		const m = await mount(app, host);
		expect(m.headerAgent()).toBe("Default");
		const items = await m.openMenu();
		expect(items.map((i) => i.textContent)).toEqual(["Agents", "Default", "Writer", "Models", "llama3.2", "qwen3:8b", "Refresh list"]);
		expect(items.filter((i) => i.hasClass("mod-checked")).map((i) => i.textContent)).toEqual(["Default", "llama3.2"]);
	});

	it("switching the agent applies from the next message: its instructions, model and temperature", async () => {
		serve();
		const { app, host } = await setup();
		const m = await mount(app, host);
		const first = await m.send("First question");
		expect(systemOf(first)).toContain("DEFAULT-INSTRUCTIONS");
		expect(first.model).toBe("llama3.2");
		expect(first.options?.temperature).toBeUndefined();

		await m.pickAgent("Writer");
		expect(m.headerModel()).toBe("qwen3:8b");
		const second = await m.send("Second question");
		expect(systemOf(second)).toContain("WRITER-INSTRUCTIONS");
		expect(systemOf(second)).not.toContain("DEFAULT-INSTRUCTIONS");
		expect(second.model).toBe("qwen3:8b");
		expect(second.options?.temperature).toBe(0.2);
		// The settings' defaults stay; the last agent is remembered for new chats.
		expect(host.settings.model).toBe("llama3.2");
		expect(host.settings.lastAgent).toBe(WRITER_NOTE);
	});

	it("a chat uses its agent's model's budget: the context size kept for that model", async () => {
		serve();
		const { app, host } = await setup();
		host.settings.maxPromptTokens = 8192;
		host.settings.modelBudgets = { "qwen3:8b": { maxPromptTokens: 32768 } };
		const m = await mount(app, host);
		expect((await m.send("General size")).options).toMatchObject({ num_ctx: 8192 });
		await m.pickAgent("Writer");
		expect((await m.send("Writer's model's size")).options).toMatchObject({ num_ctx: 32768 });
	});

	it("a chat reopens with its agent, after a restart too; a new chat starts with the agent used last", async () => {
		serve();
		const { app, host } = await setup();
		const m = await mount(app, host);
		await m.send("Hello");
		const defaultChat = host.settings.activeSessionId!;
		await m.pickAgent("Writer");
		await m.send("In verse");
		const writerChat = defaultChat;
		const file = await app.vault.adapter.read(`${host.settings.sessionsFolder}/sessions/${writerChat}.jsonl`);
		expect(file.split("\n").filter((l) => l.includes('"type":"agent"')).map((l) => (JSON.parse(l) as { agent: string }).agent)).toEqual([DEFAULT_NOTE, WRITER_NOTE]);

		m.root.querySelector<HTMLButtonElement>('[aria-label="New chat"]')!.click();
		await until(() => host.settings.activeSessionId !== writerChat, "a new chat");
		await flush();
		expect(m.headerAgent()).toBe("Writer");
		expect(systemOf(await m.send("New chat, last agent"))).toContain("WRITER-INSTRUCTIONS");

		// Back to a chat that used the default agent, while the last one used is Writer.
		const other = host.settings.activeSessionId!;
		await m.pickAgent("Default");
		await m.send("Plain again");
		await m.view.openSession(writerChat);
		expect(m.headerAgent()).toBe("Writer");

		m.leaf.detach();
		await flush();
		host.settings.activeSessionId = other;
		// The chat's own agent wins over the one used last.
		host.settings.lastAgent = WRITER_NOTE;
		const again = await mount(app, host);
		expect(again.headerAgent()).toBe("Default");
		const req = await again.send("After the restart");
		expect(systemOf(req)).toContain("DEFAULT-INSTRUCTIONS");
	});

	it("a broken agent note says which note and field, and the chat goes on with the default agent", async () => {
		serve();
		const { app, host } = await setup();
		host.settings.lastAgent = WRITER_NOTE;
		await app.vault.adapter.write(WRITER_NOTE, "---\nname: Writer\ntemperature: 9\n---\nWRITER-INSTRUCTIONS");
		const m = await mount(app, host);
		await until(() => notices().some((n) => n.includes(WRITER_NOTE)), "the notice");
		expect(notices().find((n) => n.includes(WRITER_NOTE))).toBe(`${WRITER_NOTE}: \`temperature\` must be a number between 0 and 2. The chat uses the default agent until the note is fixed.`);
		expect(m.headerAgent()).toBe("Default");
		const req = await m.send("Still answered");
		expect(systemOf(req)).toContain("DEFAULT-INSTRUCTIONS");
		expect(req.model).toBe("llama3.2");
		// The person's note is untouched.
		expect(await app.vault.adapter.read(WRITER_NOTE)).toBe("---\nname: Writer\ntemperature: 9\n---\nWRITER-INSTRUCTIONS");
	});

	it("a chat whose agent note is gone says so and uses the default; a new chat whose last agent is gone quietly does", async () => {
		serve();
		const { app, host } = await setup();
		const m = await mount(app, host);
		await m.pickAgent("Writer");
		await m.send("In verse");
		const chat = host.settings.activeSessionId!;
		m.leaf.detach();
		await flush();
		await app.fileManager.trashFile(app.vault.getFileByPath(WRITER_NOTE)!);
		const again = await mount(app, host);
		expect(host.settings.activeSessionId).toBe(chat);
		await until(() => notices().some((n) => n.includes(WRITER_NOTE)), "the notice");
		expect(notices().filter((n) => n.includes(WRITER_NOTE))).toEqual([`The agent note ${WRITER_NOTE} no longer exists; the chat uses the default agent.`]);
		expect(again.headerAgent()).toBe("Default");
		expect(systemOf(await again.send("Still here"))).toContain("DEFAULT-INSTRUCTIONS");

		clearNotices();
		again.root.querySelector<HTMLButtonElement>('[aria-label="New chat"]')!.click();
		await until(() => host.settings.activeSessionId !== chat, "a new chat");
		await flush();
		expect(again.headerAgent()).toBe("Default");
		expect(notices()).toEqual([]);
		expect(host.settings.lastAgent).toBeUndefined();
	});

	it("an agent's sources go with each message, as the panel's sources", async () => {
		serve();
		const { app, host } = await setup({
			"Guides/Style guide.md": "STYLE-GUIDE: use short words.",
			[`${FOLDER}/Editor.md`]: '---\nname: Editor\nsources: ["[[Style guide]]"]\n---\nEDITOR-INSTRUCTIONS',
		});
		const m = await mount(app, host);
		await m.pickAgent("Editor");
		await until(() => m.root.textContent?.includes("Style guide") === true, "the source chip");
		const first = await m.send("Edit this");
		expect(JSON.stringify(first.messages)).toContain("STYLE-GUIDE");
		const second = await m.send("And this");
		expect(JSON.stringify(second.messages)).toContain("STYLE-GUIDE");
	});
});
