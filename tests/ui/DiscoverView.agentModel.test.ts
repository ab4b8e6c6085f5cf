// @vitest-environment happy-dom
// An agent note naming a model the server does not have, in the panel on the plugin's own engine
// (createChatRuntime) and agents folder (AgentLibrary) against a local Ollama-like server: when a
// chat takes the agent, its model is checked against the server's list (a tag-less name matches its
// `:latest`), and an unknown one names the note and the field while the chat uses the default
// agent; a list that cannot be had raises no alarm; a send the server refuses with "model not found"
// names the note and the field, keeps the person's text, and the next send uses the default agent.
import { beforeAll, describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp, flush, notices, openNote, type App } from "../obsidian/harness";
import { until } from "../support/chatHarness";
import { ProviderServer, type Scenario } from "../support/providerServer";
import type { DiscoverHost } from "../../src/ui/host";
import { forgetModelLists } from "../../src/ui/panel/modelList";
import { AGENT_MODEL_CHECK_MS } from "../../src/ui/agents/agentModel";
import { AgentLibrary } from "../../src/wiring/agentLibrary";
import { testSettings } from "./fakes";
import { approvalsOf } from "../support/agentApprovals";
import { mountRuntimePanel, runtimePanelServer } from "./runtimePanel";

const ANSWER = ['{"model":"m","message":{"role":"assistant","content":"Noted."},"done":false}', '{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":40,"eval_count":2}', ""].join("\n");
const FOLDER = "Discover/Agents";
const DEFAULT_NOTE = `${FOLDER}/Default.md`;
const WRITER_NOTE = `${FOLDER}/Writer.md`;
const FALLBACK = "The chat uses the default agent until the note is fixed.";

const shared = runtimePanelServer();
const cleanups = shared.cleanups;
let server: ProviderServer;
beforeAll(() => {
	server = shared.server();
});

const json = (body: unknown, status = 200): Scenario => ({ status, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** The server: `models` listed (an Error: the listing fails), chat answers for every model but `missing`. */
function serve(models: string[] | Error, missing?: string): void {
	server.route("GET", "/api/tags", models instanceof Error ? json({ error: models.message }, 500) : json({ models: models.map((name) => ({ name, model: name })) }));
	server.route("POST", "/api/chat", (req) =>
		(req.json as { model?: string } | undefined)?.model === missing
			? json({ error: `model "${missing}" not found, try pulling it first` }, 404)
			: { headers: { "content-type": "application/x-ndjson" }, body: ANSWER },
	);
	server.route("POST", "/api/show", { status: 404, body: "{}" });
}

interface SentRequest {
	model?: string;
	messages?: { role: string; content: string }[];
}
const systemOf = (req: SentRequest): string => req.messages?.find((m) => m.role === "system")?.content ?? "";

async function setup(writerModel: string, lastAgent?: string, defaultNote = "---\nname: Default\n---\nDEFAULT-INSTRUCTIONS: answer briefly.") {
	// Both agents were approved by the person before.
	const agents = { [DEFAULT_NOTE]: defaultNote, [WRITER_NOTE]: `---\nname: Writer\nmodel: ${writerModel}\n---\nWRITER-INSTRUCTIONS: answer in verse.` };
	const app: App = await createTestApp({ files: { "Notes/Alpha.md": "# Alpha\n\nAlpha is the first note.\n", ...agents } });
	await openNote(app, "Notes/Alpha.md");
	const settings = testSettings({ provider: "ollama", baseUrl: server.url, model: "llama3.2", includeActiveNote: false, agentApprovals: approvalsOf(agents), ...(lastAgent ? { lastAgent } : {}) });
	const host: DiscoverHost = { app: asObsidianApp(app), settings, saveSettings: () => Promise.resolve(), agents: new AgentLibrary({ app: asObsidianApp(app), settings }) };
	const panel = await mountRuntimePanel(app, host, server, cleanups);
	const headerAgent = () => panel.root.querySelector(".discover-chat-agent-name")?.textContent ?? "";
	const send = async (text: string): Promise<SentRequest> => (await panel.sendAndCapture(text)) as SentRequest;
	const listings = () => server.requests.filter((r) => r.path === "/api/tags").length;
	return { app, host, ...panel, headerAgent, send, listings };
}

describe("an agent naming a model the server doesn't have", () => {
	it("a chat taking the agent says which note, field and model, and uses the default agent", async () => {
		serve(["llama3.2", "qwen3:8b"]);
		const m = await setup("mistral-large", WRITER_NOTE);
		await until(() => notices().some((n) => n.includes(WRITER_NOTE)), "the notice");
		expect(notices().filter((n) => n.includes(WRITER_NOTE))).toEqual([`${WRITER_NOTE}: \`model\` names “mistral-large”, which isn't on the server. ${FALLBACK}`]);
		expect(m.headerAgent()).toBe("Default");
		expect(m.headerModel()).toBe("llama3.2");
		const req = await m.send("Still answered");
		expect(req.model).toBe("llama3.2");
		expect(systemOf(req)).toContain("DEFAULT-INSTRUCTIONS");
		// The person's note is untouched.
		expect(await m.app.vault.adapter.read(WRITER_NOTE)).toContain("model: mistral-large");
	});

	it("switching to the agent in the header says so too, and the chat stays on the default agent and model", async () => {
		serve(["llama3.2", "qwen3:8b"]);
		const m = await setup("mistral-large");
		expect(m.headerAgent()).toBe("Default");
		(await m.openMenu()).find((i) => i.textContent === "Writer")!.click();
		await until(() => notices().some((n) => n.includes(WRITER_NOTE)), "the notice");
		expect(notices().find((n) => n.includes(WRITER_NOTE))).toContain("“mistral-large”");
		await flush();
		expect(m.headerAgent()).toBe("Default");
		const req = await m.send("Plain");
		expect(req.model).toBe("llama3.2");
		expect(systemOf(req)).toContain("DEFAULT-INSTRUCTIONS");
	});

	it("a reopened chat that picked its own model is not told about its agent's missing one", async () => {
		serve(["llama3.2", "qwen3:8b"]);
		const m = await setup("qwen3:8b");
		await m.pickFromMenu("Writer", m.headerAgent);
		// The person then picks another model for this chat in the header.
		await m.pickFromMenu("llama3.2", m.headerModel);
		await m.send("In verse, on llama");
		m.leaf.detach();
		await flush();
		// qwen3:8b is removed from the server.
		forgetModelLists();
		serve(["llama3.2"]);
		const again = await mountRuntimePanel(m.app, m.host, server, cleanups);
		// The header names the agent once the chat has taken it (checked or not).
		await until(() => (again.root.querySelector(".discover-chat-agent-name")?.textContent ?? "") !== "", "the chat's agent");
		await flush();
		expect(notices()).toEqual([]);
		expect(again.root.querySelector(".discover-chat-agent-name")?.textContent).toBe("Writer");
		const req = (await again.sendAndCapture("Still in verse")) as SentRequest;
		expect(req.model).toBe("llama3.2");
		expect(systemOf(req)).toContain("WRITER-INSTRUCTIONS");
	});

	it("a list the server cannot give raises no alarm: the agent and its model are used", async () => {
		serve(new Error("server busy"));
		const m = await setup("qwen3:8b", WRITER_NOTE);
		await until(() => m.listings() > 0 && m.headerAgent() !== "", "the model list asked for, and the agent taken");
		await flush();
		expect(notices()).toEqual([]);
		expect(m.headerAgent()).toBe("Writer");
		const req = await m.send("In verse");
		expect(req.model).toBe("qwen3:8b");
		expect(systemOf(req)).toContain("WRITER-INSTRUCTIONS");
	});

	it("a list slower than the chat waits for raises no alarm either", async () => {
		serve(["llama3.2"]);
		server.route("GET", "/api/tags", { ...json({ models: [{ name: "llama3.2", model: "llama3.2" }] }), firstByteDelayMs: AGENT_MODEL_CHECK_MS + 1500 });
		const m = await setup("qwen3:8b", WRITER_NOTE);
		expect(m.headerAgent()).toBe("Writer");
		expect(notices()).toEqual([]);
		expect((await m.send("In verse")).model).toBe("qwen3:8b");
	});

	it("a tag-less name matches the server's `:latest`", async () => {
		serve(["llama3:latest", "llama3.2"]);
		const m = await setup("llama3", WRITER_NOTE);
		await until(() => m.listings() > 0 && m.headerAgent() !== "", "the model list asked for, and the agent taken");
		await flush();
		expect(notices()).toEqual([]);
		expect(m.headerAgent()).toBe("Writer");
		expect((await m.send("In verse")).model).toBe("llama3");
	});

	it("when the default agent's own model is refused, the built-in agent (the settings' prompt and model) takes over", async () => {
		serve(new Error("server busy"), "ghost");
		const m = await setup("qwen3:8b", undefined, "---\nname: Default\nmodel: ghost\n---\nDEFAULT-INSTRUCTIONS");
		await until(() => m.listings() > 0 && m.headerAgent() !== "", "the model list asked for, and the agent taken");
		await flush();
		expect(m.headerModel()).toBe("ghost");
		expect((await m.send("Hello")).model).toBe("ghost");
		expect(m.root.querySelector(".discover-chat-error-message")?.textContent).toContain(`${DEFAULT_NOTE}: model names “ghost”`);
		expect(m.headerModel()).toBe("llama3.2");
		const next = await m.send("Again");
		expect(next.model).toBe("llama3.2");
		expect(systemOf(next)).toContain(m.host.settings.systemPrompt.trim().slice(0, 40));
		expect(systemOf(next)).not.toContain("DEFAULT-INSTRUCTIONS");
	});

	it("a send the server refuses with model not found names the note and the field, keeps the text, and the next send uses the default agent", async () => {
		// The list is down, so only the send can tell.
		serve(new Error("server busy"), "ghost");
		const m = await setup("ghost", WRITER_NOTE);
		await until(() => m.listings() > 0 && m.headerAgent() !== "", "the model list asked for, and the agent taken");
		await flush();
		expect(m.headerAgent()).toBe("Writer");
		const refused = await m.send("A question worth keeping");
		expect(refused.model).toBe("ghost");
		const card = m.root.querySelector(".discover-chat-error");
		const message = card?.querySelector(".discover-chat-error-message");
		// The field shows as code, as in the note.
		expect(message?.textContent).toBe(`${WRITER_NOTE}: model names “ghost”, which isn't on the server. ${FALLBACK}`);
		expect(message?.querySelector("code")?.textContent).toBe("model");
		// The server's own words stay under Details.
		expect(card?.querySelector(".discover-chat-error-said")?.textContent).toContain('model "ghost" not found');
		// The text is kept, as for any refused send: on record, with Retry.
		expect(m.view.chatRuntime!.chat.messages.filter((msg) => msg.role === "user").map((msg) => msg.content)).toEqual(["A question worth keeping"]);
		expect(m.headerAgent()).toBe("Default");
		expect(m.headerModel()).toBe("llama3.2");

		// Retry is the next send: the same question, to the default agent and model.
		const chats = () => server.requests.filter((r) => r.path === "/api/chat");
		const before = chats().length;
		card!.querySelector<HTMLButtonElement>(".discover-chat-retry")!.click();
		await until(() => chats().length > before, "the retried request");
		await until(() => m.root.querySelector(".discover-chat-send")?.getAttribute("aria-label") === "Send message", "the turn to end");
		const retried = chats().pop()!.json as SentRequest;
		expect(retried.model).toBe("llama3.2");
		expect(systemOf(retried)).toContain("DEFAULT-INSTRUCTIONS");
		expect(retried.messages?.filter((msg) => msg.role === "user").pop()?.content).toContain("A question worth keeping");
	});
});
