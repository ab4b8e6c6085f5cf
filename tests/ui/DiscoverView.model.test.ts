// @vitest-environment happy-dom
// The chat's model in the panel, on the plugin's own engine (createChatRuntime) against a local
// Ollama-like server: the header lists the server's models, a switch is saved with the chat and
// used by the next request, and reopening a chat brings its model back.
import { beforeAll, describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp, flush, openNote, type App } from "../obsidian/harness";
import { until } from "../support/chatHarness";
import { ProviderServer } from "../support/providerServer";
import type { DiscoverHost } from "../../src/ui/host";
import { testSettings } from "./fakes";
import { mountRuntimePanel, runtimePanelServer } from "./runtimePanel";

const ANSWER = ['{"model":"m","message":{"role":"assistant","content":"Noted."},"done":false}', '{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":40,"eval_count":2}', ""].join("\n");

const shared = runtimePanelServer();
const cleanups = shared.cleanups;
let server: ProviderServer;
beforeAll(() => {
	server = shared.server();
});

function serve(models: string[]): void {
	server.route("GET", "/api/tags", { headers: { "content-type": "application/json" }, body: JSON.stringify({ models: models.map((name) => ({ name, model: name })) }) });
	server.route("POST", "/api/chat", { headers: { "content-type": "application/x-ndjson" }, body: ANSWER });
	server.route("POST", "/api/show", { status: 404, body: "{}" });
}

async function mount(app: App, host: DiscoverHost) {
	const panel = await mountRuntimePanel(app, host, server, cleanups);
	const pick = (title: string) => panel.pickFromMenu(title, panel.headerModel);
	const send = async (text: string) => ((await panel.sendAndCapture(text)) as { model?: string } | undefined)?.model;
	return { ...panel, pick, send };
}

async function setup() {
	const app = await createTestApp({ files: { "Notes/Alpha.md": "# Alpha\n\nAlpha is the first note.\n" } });
	await openNote(app, "Notes/Alpha.md");
	const host: DiscoverHost = { app: asObsidianApp(app), settings: testSettings({ provider: "ollama", baseUrl: server.url, model: "llama3.2" }), saveSettings: () => Promise.resolve() };
	return { app, host };
}

describe("the model in the panel's header", () => {
	it("lists the server's models with the current one checked, from a cached list that Refresh asks again", async () => {
		serve(["llama3.2", "qwen3:8b"]);
		const { app, host } = await setup();
		const m = await mount(app, host);
		expect(m.headerModel()).toBe("llama3.2");
		const items = await m.openMenu();
		expect(items.map((i) => i.textContent)).toEqual(["llama3.2", "qwen3:8b", "Refresh list"]);
		expect(items.filter((i) => i.hasClass("mod-checked")).map((i) => i.textContent)).toEqual(["llama3.2"]);
		await m.openMenu();
		const tags = () => server.requests.filter((r) => r.path === "/api/tags").length;
		expect(tags()).toBe(1);
		const refresh = Array.from(document.body.querySelectorAll<HTMLElement>(".menu .menu-item")).find((i) => i.textContent === "Refresh list")!;
		refresh.click();
		await until(() => tags() === 2, "the list asked again");
		await until(() => document.body.querySelector(".menu") !== null, "the refreshed menu");
	});

	it("a failed listing says why in the menu and still offers the current model", async () => {
		server.route("GET", "/api/tags", { status: 500, body: "boom" });
		const { app, host } = await setup();
		const m = await mount(app, host);
		const items = await m.openMenu();
		expect(items[0]?.textContent).toMatch(/^Could not list models: /);
		expect(items[0]?.hasClass("is-disabled")).toBe(true);
		expect(items.slice(1).map((i) => i.textContent)).toEqual(["llama3.2", "Refresh list"]);
	});

	it("switching saves the model with the chat, the next request uses it, and the settings' default stays", async () => {
		serve(["llama3.2", "qwen3:8b"]);
		const { app, host } = await setup();
		const m = await mount(app, host);
		expect(await m.send("First question")).toBe("llama3.2");
		await m.pick("qwen3:8b");
		expect(await m.send("Second question")).toBe("qwen3:8b");
		const id = host.settings.activeSessionId!;
		const file = await app.vault.adapter.read(`${host.settings.sessionsFolder}/sessions/${id}.jsonl`);
		const models = file
			.split("\n")
			.filter((l) => l.includes('"type":"model"'))
			.map((l) => (JSON.parse(l) as { model: string }).model);
		expect(models).toEqual(["llama3.2", "qwen3:8b"]);
		expect(host.settings.model).toBe("llama3.2");
	});

	it("a model picked in a new chat before its first message is saved with that message", async () => {
		serve(["llama3.2", "qwen3:8b"]);
		const { app, host } = await setup();
		const m = await mount(app, host);
		await m.pick("qwen3:8b");
		expect(await m.send("Hello")).toBe("qwen3:8b");
		const file = await app.vault.adapter.read(`${host.settings.sessionsFolder}/sessions/${host.settings.activeSessionId!}.jsonl`);
		expect(file).toContain('"type":"model","model":"qwen3:8b"');
	});

	it("reopening a chat restores its model; a new chat starts with the settings' model", async () => {
		serve(["llama3.2", "qwen3:8b"]);
		const { app, host } = await setup();
		const m = await mount(app, host);
		await m.pick("qwen3:8b");
		await m.send("About qwen");
		const qwenChat = host.settings.activeSessionId!;

		m.root.querySelector<HTMLButtonElement>('[aria-label="New chat"]')!.click();
		await until(() => host.settings.activeSessionId !== qwenChat, "a new chat");
		await until(() => m.headerModel() === "llama3.2", "the default model");
		expect(await m.send("About llama")).toBe("llama3.2");

		await m.view.openSession(qwenChat);
		expect(m.headerModel()).toBe("qwen3:8b");
		expect(await m.send("Back to qwen")).toBe("qwen3:8b");

		// After a restart too.
		m.leaf.detach();
		await flush();
		const again = await mount(app, host);
		expect(again.headerModel()).toBe("qwen3:8b");
		expect(await again.send("Still qwen")).toBe("qwen3:8b");
	});

	it("a chat saved without a model (an older file) uses the settings' model", async () => {
		serve(["llama3.2", "qwen3:8b"]);
		const { app, host } = await setup();
		const id = "0000000001-old";
		const folder = `${host.settings.sessionsFolder}/sessions`;
		await app.vault.adapter.mkdir(folder);
		const header = { type: "session", v: 1, id, createdAt: "2026-01-01T00:00:00.000Z", title: "Old", at: "2026-01-01T00:00:00.000Z" };
		const message = { type: "message", message: { id: "u1", role: "user", content: "Old question", createdAt: "2026-01-01T00:00:01.000Z" }, at: "2026-01-01T00:00:01.000Z" };
		await app.vault.adapter.write(`${folder}/${id}.jsonl`, `${JSON.stringify(header)}\n${JSON.stringify(message)}\n`);
		host.settings.model = "qwen3:8b";
		host.settings.activeSessionId = id;
		const m = await mount(app, host);
		expect(m.root.querySelector(".discover-chat-message-body")?.textContent).toBe("Old question");
		expect(m.headerModel()).toBe("qwen3:8b");
		expect(await m.send("New question")).toBe("qwen3:8b");
	});
});
