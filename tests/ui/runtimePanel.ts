// The panel on the plugin's own engine (createChatRuntime) against a local Ollama-like server, as
// the model and agent tests drive it: mount it, use the header's menu, send and read the request.
import type * as O from "obsidian";
import { afterAll, afterEach, beforeAll } from "vitest";
import { clearNotices, flush, pressKey, typeInto, type App } from "../obsidian/harness";
import { until } from "../support/chatHarness";
import { ProviderServer } from "../support/providerServer";
import { forgetModelLists } from "../../src/ui/panel/modelList";
import { DiscoverView } from "../../src/ui/panel/DiscoverView";
import type { DiscoverHost } from "../../src/ui/host";
import { pluginRuntimeFactory } from "../../src/wiring/factories";

export async function mountRuntimePanel(app: App, host: DiscoverHost, server: ProviderServer, cleanups: (() => void)[]) {
	const leaf = app.workspace.getRightLeaf(false)!;
	const view = new DiscoverView(leaf as unknown as O.WorkspaceLeaf, host, pluginRuntimeFactory);
	await leaf.open(view as unknown as Parameters<typeof leaf.open>[0]);
	cleanups.push(() => leaf.detach());
	const root = view.contentEl;
	await until(() => view.chatRuntime !== undefined, "the engine");
	await flush();
	const headerModel = () => root.querySelector(".discover-chat-model-name")?.textContent ?? "";
	const openMenu = async () => {
		for (const old of Array.from(document.body.querySelectorAll(".menu"))) old.remove();
		root.querySelector<HTMLButtonElement>(".discover-chat-model")!.click();
		await until(() => document.body.querySelector(".menu") !== null, "the header's menu");
		return Array.from(document.body.querySelectorAll<HTMLElement>(".menu .menu-item"));
	};
	/** Picks the menu item `title`, then waits for `shown` (the header's text) to read it. */
	const pickFromMenu = async (title: string, shown: () => string) => {
		const item = (await openMenu()).find((i) => i.textContent === title);
		if (!item) throw new Error(`No menu item ${title}`);
		item.click();
		await until(() => shown() === title, `the header to show ${title}`);
		await flush();
	};
	/** Sends `text` as a person does and returns the body of the chat request it made. */
	const sendAndCapture = async (text: string): Promise<unknown> => {
		const chats = () => server.requests.filter((r) => r.path === "/api/chat");
		const before = chats().length;
		const input = root.querySelector<HTMLTextAreaElement>(".discover-chat-input")!;
		typeInto(input, text);
		pressKey(input, "Enter");
		await until(() => chats().length > before, "the request");
		await until(() => root.querySelector(".discover-chat-send")?.getAttribute("aria-label") === "Send message", "the turn to end");
		await flush();
		return chats().pop()?.json;
	};
	return { view, leaf, root, headerModel, openMenu, pickFromMenu, sendAndCapture };
}

/**
 * The lifecycle every runtime-panel test file shares: one local Ollama-like server for the file,
 * and after each test the panels closed, the DOM, the model lists' cache and the notices cleared
 * and the server's routes and requests forgotten. Call once at the top level of a test file.
 */
export function runtimePanelServer(): { cleanups: (() => void)[]; server: () => ProviderServer } {
	let server: ProviderServer | undefined;
	const cleanups: (() => void)[] = [];
	beforeAll(async () => {
		server = await ProviderServer.start();
	});
	afterAll(async () => {
		await server?.close();
	});
	afterEach(async () => {
		for (const c of cleanups.splice(0)) c();
		await flush();
		document.body.empty();
		forgetModelLists();
		clearNotices();
		server?.reset();
	});
	return {
		cleanups,
		server: () => {
			if (!server) throw new Error("runtimePanelServer: the server starts in beforeAll");
			return server;
		},
	};
}

/** A short Ollama answer ("Noted."), streamed as NDJSON with the server's counts. */
export const NOTED_ANSWER = ['{"model":"m","message":{"role":"assistant","content":"Noted."},"done":false}', '{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":40,"eval_count":2}', ""].join("\n");

/** The local server as an Ollama that lists `models` and answers every chat with NOTED_ANSWER. */
export function serveOllama(server: ProviderServer, models: readonly string[]): void {
	server.route("GET", "/api/tags", { headers: { "content-type": "application/json" }, body: JSON.stringify({ models: models.map((name) => ({ name, model: name })) }) });
	server.route("POST", "/api/chat", { headers: { "content-type": "application/x-ndjson" }, body: NOTED_ANSWER });
	server.route("POST", "/api/show", { status: 404, body: "{}" });
}

/** A chat request as the Ollama stub received it. */
export interface SentRequest {
	model?: string;
	messages?: { role: string; content: string }[];
	options?: { temperature?: number };
}

/** The leading system message of a sent request ("" when none). */
export const systemOf = (req: SentRequest): string => req.messages?.find((m) => m.role === "system")?.content ?? "";
