// @vitest-environment happy-dom
// The key that went to another vendor, on the plugin's own engine (createChatRuntime) and agents folder: the
// settings hold Anthropic with a company key; an agent note names another vendor. Two model servers
// on 127.0.0.1 stand for the two vendors (A: the settings' Anthropic, B: "api.openai.com", the
// provider's usual address pointed at B for the test), and each records which Authorization or
// x-api-key it saw. The company key must never reach B, whatever the agent note says; B gets a key
// only when the note names its own secret (and the person approved the note, which shows where
// that key goes). A local-only setup (Ollama) sends nothing to another host before the review.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp, flush, openNote, pressKey, typeInto, type App } from "../obsidian/harness";
import { until } from "../support/chatHarness";
import { ProviderServer, type RecordedRequest } from "../support/providerServer";
import { streamScenario, JSON_HEADERS } from "../support/providerStreams";
import type { DiscoverHost } from "../../src/ui/host";
import { AgentLibrary } from "../../src/wiring/agentLibrary";
import { DEFAULT_BASE_URLS } from "../../src/providers/types";
import { testSettings } from "./fakes";
import { approvalsOf } from "../support/agentApprovals";
import { mountRuntimePanel } from "./runtimePanel";
import { forgetModelLists } from "../../src/ui/panel/modelList";
import { clearNotices } from "../obsidian/harness";

const FOLDER = "Discover/Agents";
const COMPANY_KEY = "sk-ant-company-0001";
const AGENT_NOTE = `${FOLDER}/Chatty.md`;

let vendorA: ProviderServer;
let vendorB: ProviderServer;
const cleanups: (() => void)[] = [];
const usualOpenAI = DEFAULT_BASE_URLS.openai;

beforeAll(async () => {
	vendorA = await ProviderServer.start();
	vendorB = await ProviderServer.start();
	// B stands for api.openai.com: an agent naming `provider: openai` and no address goes there.
	(DEFAULT_BASE_URLS as Record<string, string>).openai = `${vendorB.url}/v1`;
});
afterAll(async () => {
	(DEFAULT_BASE_URLS as Record<string, string>).openai = usualOpenAI;
	await vendorA.close();
	await vendorB.close();
});
afterEach(async () => {
	for (const c of cleanups.splice(0)) c();
	await flush();
	document.body.empty();
	forgetModelLists();
	clearNotices();
	vendorA.reset();
	vendorB.reset();
});

const REFUSED = { status: 401, headers: JSON_HEADERS, body: JSON.stringify({ error: { message: "You didn't provide an API key.", type: "invalid_request_error", code: "invalid_api_key" } }) };

/** A answers as Anthropic; B as OpenAI, refusing a request without a key as OpenAI does. */
function serveVendors(): void {
	vendorA.route("POST", "/v1/messages", streamScenario("anthropic", ["From A."]));
	vendorA.route("GET", "/v1/models", { headers: JSON_HEADERS, body: JSON.stringify({ data: [{ id: "claude-sonnet-4", type: "model" }] }) });
	vendorA.route("POST", "/api/chat", streamScenario("ollama", ["From A."]));
	vendorA.route("GET", "/api/tags", { headers: JSON_HEADERS, body: JSON.stringify({ models: [{ name: "llama3.2", model: "llama3.2" }] }) });
	vendorA.route("POST", "/api/show", { status: 404, body: "{}" });
	vendorB.route("POST", "/v1/chat/completions", (req) => (req.headers.authorization ? streamScenario("openai", ["From B."]) : REFUSED));
	vendorB.route("GET", "/v1/models", (req) => (req.headers.authorization ? { headers: JSON_HEADERS, body: JSON.stringify({ data: [{ id: "gpt-4o", object: "model" }] }) } : REFUSED));
}

/** Every key a server saw, whichever header carried it. */
const keysSeen = (server: ProviderServer): string[] =>
	server.requests.flatMap((r: RecordedRequest) => [r.headers.authorization, r.headers["x-api-key"]].filter((v): v is string => typeof v === "string"));

const DEFAULT_NOTE = `${FOLDER}/Default.md`;
const DEFAULT_TEXT = "---\nname: Default\n---\nDEFAULT-INSTRUCTIONS";
const OWN_KEY = "sk-openai-own-0002";

/** `local`: the settings are a local-only Ollama on A, with no key. */
async function setup(agentNote: string, local = false) {
	const app: App = await createTestApp({
		files: {
			"Notes/Alpha.md": "# Alpha\n\nAlpha is the first note.\n",
			[DEFAULT_NOTE]: DEFAULT_TEXT,
			[AGENT_NOTE]: agentNote,
		},
		secrets: { "company-key": COMPANY_KEY, "openai-key": OWN_KEY },
	});
	await openNote(app, "Notes/Alpha.md");
	// The default agent was approved before; the agent note never was.
	const server = local ? { provider: "ollama" as const, model: "llama3.2", apiKeySecret: "" } : { provider: "anthropic" as const, model: "claude-sonnet-4", apiKeySecret: "company-key" };
	const settings = testSettings({ ...server, baseUrl: vendorA.url, includeActiveNote: false, lastAgent: AGENT_NOTE, agentApprovals: approvalsOf({ [DEFAULT_NOTE]: DEFAULT_TEXT }) });
	const host: DiscoverHost = { app: asObsidianApp(app), settings, saveSettings: () => Promise.resolve(), agents: new AgentLibrary({ app: asObsidianApp(app), settings }) };
	const panel = await mountRuntimePanel(app, host, vendorA, cleanups);
	const requests = (): number => vendorA.requests.length + vendorB.requests.length;
	const send = async (text: string): Promise<void> => {
		const before = requests();
		const input = panel.root.querySelector<HTMLTextAreaElement>(".discover-chat-input")!;
		typeInto(input, text);
		pressKey(input, "Enter");
		await until(() => requests() > before, "the request");
		await until(() => panel.root.querySelector(".discover-chat-send")?.getAttribute("aria-label") === "Send message", "the turn to end");
		await flush();
	};
	const card = (): HTMLElement | null => panel.root.querySelector<HTMLElement>(".discover-agent-review");
	const cardButton = (label: string): HTMLButtonElement => {
		const button = Array.from(card()?.querySelectorAll<HTMLButtonElement>("button") ?? []).find((b) => b.textContent === label);
		if (!button) throw new Error(`No ${label} button on the review card`);
		return button;
	};
	const headerAgent = (): string => panel.root.querySelector(".discover-chat-agent-name")?.textContent ?? "";
	await until(() => card() !== null, "the agent's review card");
	return { app, host, ...panel, send, card, cardButton, headerAgent };
}

const lastChat = (server: ProviderServer, path: string): RecordedRequest | undefined => server.requests.filter((r) => r.path === path).pop();

describe("a key goes only to the server it was set for", () => {
	it("an agent naming another vendor never gets the settings' key: its requests go without one, and the refusal names the note and `secret`", async () => {
		serveVendors();
		const m = await setup("---\nname: Chatty\nprovider: openai\nmodel: gpt-4o\n---\nCHATTY");
		// Before the review nothing reaches B, not even a model list.
		expect(vendorB.requests).toEqual([]);
		expect(m.headerAgent()).toBe("Default");
		const facts = Array.from(m.card()!.querySelectorAll("li"), (li) => li.textContent);
		expect(facts[0]).toBe(`Sends your messages and notes to ${vendorB.url} (openai, gpt-4o).`);
		expect(facts[1]).toBe(`Sends no key: your key in settings is for ${vendorA.url} only. Without secret this server may refuse.`);
		m.cardButton("Approve and use").click();
		await until(() => m.headerAgent() === "Chatty", "the agent in use");
		await m.send("Hello");
		expect(lastChat(vendorB, "/v1/chat/completions")).toBeDefined();
		expect(keysSeen(vendorB)).toEqual([]);
		expect(keysSeen(vendorA)).not.toContainEqual(expect.stringContaining(OWN_KEY));
		const message = m.root.querySelector(".discover-chat-error")?.textContent ?? "";
		expect(message).toContain(`${AGENT_NOTE}: this agent's server, ${vendorB.url}, is not the one your key in settings is for, so no key was sent. Add secret to the note, naming a secret for that server.`);
	});

	it("an agent naming its own secret sends that key to its own server only; the settings' key still goes only to A", async () => {
		serveVendors();
		const m = await setup("---\nname: Chatty\nprovider: openai\nmodel: gpt-4o\nsecret: openai-key\n---\nCHATTY");
		expect(Array.from(m.card()!.querySelectorAll("li"), (li) => li.textContent)[1]).toBe(`Uses the key “openai-key”, sent only to ${vendorB.url}.`);
		m.cardButton("Approve and use").click();
		await until(() => m.headerAgent() === "Chatty", "the agent in use");
		await m.send("Hello B");
		expect(keysSeen(vendorB).length).toBeGreaterThan(0);
		expect(new Set(keysSeen(vendorB))).toEqual(new Set([`Bearer ${OWN_KEY}`]));
		// Back to the default agent: A gets the company key, and only A.
		await m.pickFromMenu("Default", m.headerAgent);
		await m.send("Hello A");
		expect(lastChat(vendorA, "/v1/messages")?.headers["x-api-key"]).toBe(COMPANY_KEY);
		expect(keysSeen(vendorB)).not.toContainEqual(expect.stringContaining(COMPANY_KEY));
	});

	it("an agent naming the settings' secret for another server gets no key: that secret is bound to the settings' server", async () => {
		serveVendors();
		const m = await setup("---\nname: Chatty\nprovider: openai\nmodel: gpt-4o\nsecret: company-key\n---\nCHATTY");
		expect(Array.from(m.card()!.querySelectorAll("li"), (li) => li.textContent)[1]).toBe(`Sends no key: “company-key” is your key in settings, which goes only to ${vendorA.url}.`);
		m.cardButton("Approve and use").click();
		await until(() => m.headerAgent() === "Chatty", "the agent in use");
		await m.send("Hello");
		expect(lastChat(vendorB, "/v1/chat/completions")).toBeDefined();
		expect(keysSeen(vendorB)).toEqual([]);
		expect(m.root.querySelector(".discover-chat-error")?.textContent ?? "").toContain(`${AGENT_NOTE}: secret names your key in settings, which goes only to ${vendorA.url}, so no key was sent to ${vendorB.url}.`);
	});

	it("an agent naming a secret that is not in the keychain sends no key, and the refusal says so", async () => {
		serveVendors();
		const m = await setup("---\nname: Chatty\nprovider: openai\nmodel: gpt-4o\nsecret: gone-key\n---\nCHATTY");
		m.cardButton("Approve and use").click();
		await until(() => m.headerAgent() === "Chatty", "the agent in use");
		await m.send("Hello");
		expect(keysSeen(vendorB)).toEqual([]);
		expect(m.root.querySelector(".discover-chat-error")?.textContent ?? "").toContain(`${AGENT_NOTE}: secret names “gone-key”, which isn't in Obsidian's keychain, so no key was sent to ${vendorB.url}.`);
	});

	it("a local-only (Ollama) setup sends no note text to another host because of an agent note: the review card comes first", async () => {
		serveVendors();
		const m = await setup(`---\nname: Chatty\nprovider: openai\nbaseUrl: ${vendorB.url}/v1\nmodel: gpt-4o\nsources: ["Notes/"]\n---\nCHATTY`, true);
		const facts = Array.from(m.card()!.querySelectorAll("li"), (li) => li.textContent);
		expect(facts).toEqual([`Sends your messages and notes to ${vendorB.url} (openai, gpt-4o).`, "Sends no key.", "Adds Notes/ to every message."]);
		expect(m.card()!.textContent).toContain("Until you approve it, the chat uses the default agent.");
		expect(vendorB.requests).toEqual([]);
		m.cardButton("Use default agent").click();
		await flush();
		expect(m.card()).toBeNull();
		await m.send("Hello, local");
		expect(lastChat(vendorA, "/api/chat")).toBeDefined();
		expect(vendorB.requests).toEqual([]);
		// A new chat does not ask again: the person chose the default agent.
		expect(m.host.settings.lastAgent).toBeUndefined();
	});
});
