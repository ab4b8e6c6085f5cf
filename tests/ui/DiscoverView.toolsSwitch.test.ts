// @vitest-environment happy-dom
// The header's tools switch on the plugin's own engine (createChatRuntime) against a local
// Ollama-like server: it is saved with the chat, so the chat reopens with it (after a restart too)
// and sends without tools; a new chat starts on; the meter leaves the tool definitions out as soon
// as the switch is off, by exactly what they cost.
import { beforeAll, describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp, flush, notices, openNote, pressKey, typeInto } from "../obsidian/harness";
import { until } from "../support/chatHarness";
import { ProviderServer } from "../support/providerServer";
import type { DiscoverHost } from "../../src/ui/host";
import { t } from "../../src/i18n";
import { testSettings } from "./fakes";
import { mountRuntimePanel, runtimePanelServer } from "./runtimePanel";
import { mountView } from "./mountView";

const ANSWER = ['{"model":"m","message":{"role":"assistant","content":"Noted."},"done":false}', '{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":40,"eval_count":2}', ""].join("\n");

const shared = runtimePanelServer();
const cleanups = shared.cleanups;
let server: ProviderServer;
beforeAll(() => {
	server = shared.server();
});

function serve(): void {
	server.route("GET", "/api/tags", { headers: { "content-type": "application/json" }, body: JSON.stringify({ models: [{ name: "llama3.2", model: "llama3.2" }] }) });
	server.route("POST", "/api/chat", { headers: { "content-type": "application/x-ndjson" }, body: ANSWER });
	server.route("POST", "/api/show", { status: 404, body: "{}" });
}

async function setup() {
	const app = await createTestApp({ files: { "Notes/Alpha.md": "# Alpha\n\nAlpha is the first note.\n" } });
	await openNote(app, "Notes/Alpha.md");
	const settings = testSettings({ provider: "ollama", baseUrl: server.url, model: "llama3.2", includeActiveNote: false });
	const host: DiscoverHost = { app: asObsidianApp(app), settings, saveSettings: () => Promise.resolve() };
	return { app, host };
}

async function mount(app: Awaited<ReturnType<typeof setup>>["app"], host: DiscoverHost) {
	const panel = await mountRuntimePanel(app, host, server, cleanups);
	const switchEl = () => panel.root.querySelector<HTMLButtonElement>(".discover-tools-switch")!;
	const isOn = () => switchEl().getAttribute("aria-pressed") === "true";
	const meter = () => Number(panel.root.querySelector(".discover-chat-meter")?.getAttribute("aria-valuenow") ?? NaN);
	const send = async (text: string) => (await panel.sendAndCapture(text)) as { tools?: unknown[] };
	return { ...panel, switchEl, isOn, meter, send };
}

describe("the tools switch on the engine", () => {
	it("is saved with the chat: the chat reopens with it off, after a restart too, and sends without tools; a new chat starts on", async () => {
		serve();
		const { app, host } = await setup();
		const m = await mount(app, host);
		expect(m.isOn()).toBe(true);
		expect((await m.send("With tools")).tools?.length ?? 0).toBeGreaterThan(0);
		const chat = host.settings.activeSessionId!;
		m.switchEl().click();
		await flush();
		expect(m.isOn()).toBe(false);
		expect((await m.send("Without tools")).tools).toBeUndefined();
		const file = await app.vault.adapter.read(`${host.settings.sessionsFolder}/sessions/${chat}.jsonl`);
		expect(file.split("\n").filter((l) => l.includes('"type":"tools"')).map((l) => (JSON.parse(l) as { on: boolean }).on)).toEqual([false]);

		m.root.querySelector<HTMLButtonElement>('[aria-label="New chat"]')!.click();
		await until(() => host.settings.activeSessionId !== chat, "a new chat");
		await flush();
		expect(m.isOn()).toBe(true);
		await m.view.openSession(chat);
		expect(m.isOn()).toBe(false);

		// A restart: a new panel on a new engine over the same vault.
		m.leaf.detach();
		await flush();
		const again = await mount(app, host);
		expect(host.settings.activeSessionId).toBe(chat);
		expect(again.isOn()).toBe(false);
		expect((await again.send("After the restart")).tools).toBeUndefined();
	});

	it("a switch turned off before a new chat's first message is saved with it", async () => {
		serve();
		const { app, host } = await setup();
		const m = await mount(app, host);
		expect(host.settings.activeSessionId).toBeUndefined();
		m.switchEl().click();
		await flush();
		expect((await m.send("First, without tools")).tools).toBeUndefined();
		m.leaf.detach();
		await flush();
		const again = await mount(app, host);
		expect(again.isOn()).toBe(false);
		expect(notices()).toEqual([]);
	});

	it("the meter leaves the tool definitions out while the switch is off, at once, by what a send without tools leaves out", async () => {
		serve();
		const { app, host } = await setup();
		const m = await mount(app, host);
		const runtime = m.view.chatRuntime!;
		const on = m.meter();
		expect(on).toBe(runtime.chat.previewPrompt("", { includeHistory: true, tools: true }).estimatedTokens);
		m.switchEl().click();
		await flush();
		const off = m.meter();
		expect(off).toBeLessThan(on);
		expect(off).toBe(runtime.chat.previewPrompt("", { includeHistory: true, tools: false }).estimatedTokens);
		m.switchEl().click();
		await flush();
		expect(m.meter()).toBe(on);
		expect(m.switchEl().getAttribute("aria-label")).toBe(t("tools.switchOn"));
	});
});

describe("the tools switch when its save fails", () => {
	it("still applies to the chat on screen, and says it was not saved", async () => {
		const m = await mountView();
		cleanups.push(() => m.leaf.detach());
		await m.view.startNewChat();
		typeInto(m.input(), "First");
		pressKey(m.input(), "Enter");
		await flush();
		m.chat.finish();
		await flush();
		m.chat.failSetTools = new Error("disk full");
		m.q<HTMLButtonElement>(".discover-tools-switch").click();
		await flush();
		expect(m.chat.toolsSet).toEqual([false]);
		expect(notices()).toContain(t("warning.toolsSwitchNotSaved"));
		expect(m.chat.previews[m.chat.previews.length - 1]?.tools).toBe(false);
		typeInto(m.input(), "Second");
		pressKey(m.input(), "Enter");
		await flush();
		expect(m.chat.sent[1]!.opts.tools).toBe(false);
		m.chat.finish();
	});
});
