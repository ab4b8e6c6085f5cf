// @vitest-environment happy-dom
// The plugin's MCP glue: nothing MCP loads or starts at load; the hub comes on first use with the
// settings' servers (secrets from secret storage); unload ends every process; the obsidian:// OAuth
// redirect reaches the sign-in that waits for its state (and only that one); the chat engine asks
// the hub for the approved agent's servers, none for an agent changed since approval.
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import DiscoverPlugin from "../../src/main";
import { asObsidianApp, createTestApp, loadPlugin, openObsidianUrl, unloadPlugin, emulateMobile, restorePlatform } from "../obsidian/harness";
import { MCP_STUB_SOURCE } from "../support/mcpStub";
import { nodeTimers } from "../support/nodeTimers";
import type { McpServerSetting } from "../../src/settings/mcpServers";
import { OAUTH_REDIRECT_URL, OAuthRedirects } from "../../src/wiring/oauthRedirect";
import { createChatRuntime } from "../../src/wiring/chatRuntime";
import type { DiscoverHost } from "../../src/ui/host";
import type { McpHubPort } from "../../src/ui/mcpPort";
import { oauthClientSecretName, oauthSecretName, readRegisteredClient, readTokens, saveRegisteredClient, saveTokens } from "../../src/wiring/mcpHub";
import { ProviderServer } from "../support/providerServer";
import { baseUrlFor } from "../support/providerStreams";
import { serveToolSteps } from "../support/toolServer";
import { testSettings } from "../ui/fakes";
import type { Agent } from "../../src/agents/agent";
import type { Tool } from "../../src/core/types";
import type { ChatEvent } from "../../src/ui/ports";
import { withApproval } from "../../src/agents/agentTrust";
import { pngHeaderBase64 } from "../support/pngHeader";

const pidStub = (name: string, env?: McpServerSetting["env"]): McpServerSetting => ({
	name,
	enabled: true,
	command: process.execPath,
	args: ["-e", `process.stderr.write("pid " + process.pid + " " + (process.env.STUB_TOKEN || "-") + "\\n");\n${MCP_STUB_SOURCE}`, "normal"],
	...(env !== undefined ? { env } : {}),
});

async function eventually(check: () => boolean, ms = 5000): Promise<void> {
	const end = Date.now() + ms;
	while (!check()) {
		if (Date.now() > end) throw new Error("timed out waiting");
		await new Promise((r) => nodeTimers.set(() => r(undefined), 10));
	}
}
const alive = (pid: number): boolean => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};

afterEach(() => restorePlatform());

describe("the plugin and its MCP servers", () => {
	it("loads no MCP code and starts nothing at load; the hub starts a server on first use, with its secret from secret storage; unload ends it", async () => {
		const app = await createTestApp();
		app.secretStorage.setSecret("stub-token", "tok-123");
		const { plugin } = await loadPlugin(DiscoverPlugin, { app, data: { settingsVersion: 3, mcpServers: [pidStub("stub", { STUB_TOKEN: { secret: "stub-token" } })] } });
		expect(plugin.settings.mcpServers.map((s) => s.name)).toEqual(["stub"]);
		expect((plugin as unknown as { mcpHub?: unknown }).mcpHub).toBeUndefined();
		const hub = await plugin.mcp();
		expect(hub.states().map((s) => s.status)).toEqual(["idle"]);
		const { tools, problems } = await hub.toolsFor(undefined);
		expect(problems).toEqual([]);
		expect(tools.map((t) => t.name)).toContain("stub__echo");
		await eventually(() => hub.state("stub")?.log.some((l) => l.text.startsWith("pid ")) === true);
		const line = hub.state("stub")?.log.find((l) => l.text.startsWith("pid "))?.text ?? "";
		expect(line).toMatch(/ tok-123$/);
		const pid = Number(line.split(" ")[1]);
		expect(alive(pid)).toBe(true);
		// data.json holds the secret's name, never its value.
		expect(JSON.stringify(await plugin.loadData())).not.toContain("tok-123");
		unloadPlugin(plugin);
		await eventually(() => !alive(pid));
	});

	it("a server turned off in settings stops at once (Disable)", async () => {
		const { plugin } = await loadPlugin(DiscoverPlugin, { data: { settingsVersion: 3, mcpServers: [pidStub("stub")] } });
		const hub = await plugin.mcp();
		await hub.toolsFor(undefined);
		await eventually(() => hub.state("stub")?.log.some((l) => l.text.startsWith("pid ")) === true);
		const pid = Number(hub.state("stub")?.log.find((l) => l.text.startsWith("pid "))?.text.split(" ")[1]);
		const server = plugin.settings.mcpServers[0];
		if (server === undefined) throw new Error("no server");
		server.enabled = false;
		await plugin.saveSettings();
		await eventually(() => !alive(pid));
		expect(hub.state("stub")?.status).toBe("disabled");
		unloadPlugin(plugin);
	});

	it("on a phone, a stdio server is desktop only and nothing is spawned", async () => {
		emulateMobile();
		const { plugin } = await loadPlugin(DiscoverPlugin, { data: { settingsVersion: 3, mcpServers: [pidStub("stub")] } });
		const hub = await plugin.mcp();
		expect(hub.states().map((s) => s.status)).toEqual(["desktop-only"]);
		const { problems } = await hub.toolsFor(undefined);
		expect(problems[0]?.message).toMatch(/desktop app/);
		unloadPlugin(plugin);
	});
});

describe("the obsidian:// OAuth redirect", () => {
	it("the plugin's handler hands the code to the sign-in waiting for its state; other states are ignored", async () => {
		const { plugin, app } = await loadPlugin(DiscoverPlugin);
		const opened: string[] = [];
		const redirects = (plugin as unknown as { oauthRedirects: OAuthRedirects }).oauthRedirects;
		(redirects as unknown as { open: (u: string) => void }).open = (u) => opened.push(u);
		const url = new URL("https://auth.example.com/authorize?client_id=c&state=s-123&redirect_uri=" + encodeURIComponent(OAUTH_REDIRECT_URL));
		const back = redirects.authorize(url);
		expect(opened).toEqual([url.toString()]);
		expect(openObsidianUrl(app, "obsidian://discover-mcp-oauth?code=forged&state=other")).toBe(true);
		expect(openObsidianUrl(app, "obsidian://discover-mcp-oauth?code=abc&state=s-123")).toBe(true);
		const returned = await back;
		expect(returned.searchParams.get("code")).toBe("abc");
		expect(returned.searchParams.get("state")).toBe("s-123");
		expect(returned.toString().startsWith(OAUTH_REDIRECT_URL)).toBe(true);
		// Unload ends a sign-in still waiting, and removes the handler.
		const pending = redirects.authorize(new URL("https://auth.example.com/authorize?state=later"));
		unloadPlugin(plugin);
		await expect(pending).rejects.toThrow(/unloaded/);
		expect(openObsidianUrl(app, "obsidian://discover-mcp-oauth?code=x&state=later")).toBe(false);
	});
});

describe("the chat engine's MCP servers", () => {
	let server: ProviderServer;
	beforeAll(async () => {
		server = await ProviderServer.start();
	});
	afterAll(() => server.close());

	it("asks the hub for the approved agent's servers, none for an agent changed since, the settings' ones without an agent", async () => {
		const asked: (readonly string[] | undefined)[] = [];
		const hub = { toolsFor: (servers: readonly string[] | undefined) => (asked.push(servers), Promise.resolve({ tools: [], problems: [] })), onToolsChanged: () => () => undefined } as unknown as McpHubPort;
		let loads = 0;
		const app = await createTestApp();
		const agent: Agent = { path: "Discover/Agents/R.md", name: "R", tools: [], sources: [], instructions: "Hi.", mcp: ["filesystem"] };
		const settings = testSettings({ provider: "ollama", baseUrl: baseUrlFor("ollama", server.url), model: "m", includeActiveNote: false, mcpServers: [pidStub("filesystem"), pidStub("github")], agentApprovals: withApproval([], agent, new Date()) });
		const host: DiscoverHost = { app: asObsidianApp(app), settings, saveSettings: () => Promise.resolve(), mcp: () => (loads++, Promise.resolve(hub)) };
		serveToolSteps(server, "ollama", ["One.", "Two.", "Three."]);
		const runtime = await createChatRuntime(host, () => undefined);
		expect(loads).toBe(0);
		await runtime.chat.newSession();
		await runtime.chat.sendMessage("no agent");
		await runtime.useAgent?.(agent);
		await runtime.chat.sendMessage("approved agent");
		// Sync added a server to the note; the runtime still holds it (say, mid-chat): it reaches nothing.
		await runtime.useAgent?.({ ...agent, mcp: ["filesystem", "github"] });
		await runtime.chat.sendMessage("changed agent");
		expect(asked).toEqual([undefined, ["filesystem"], []]);
		expect(loads).toBeGreaterThan(0);
	});

	it("an image an MCP tool returns is saved in the chats folder's attachments, shown on its card, sent to the model, and kept by the chat", async () => {
		// A PNG whose header says 16 × 16: small enough to be saved as it is (nothing to decode here).
		const png = pngHeaderBase64(16);
		const tool: Tool = {
			name: "ev__shot",
			description: "[MCP ev/shot] A screenshot.",
			parameters: { type: "object", properties: {} },
			access: "write",
			mcp: { server: "ev", tool: "shot" },
			run: (_args, ctx) => {
				ctx.onImages?.([{ mediaType: "image/png", data: png }]);
				return Promise.resolve("[Image: image/png]");
			},
		};
		const hub = { toolsFor: () => Promise.resolve({ tools: [tool], problems: [] }), onToolsChanged: () => () => undefined } as unknown as McpHubPort;
		const app = await createTestApp();
		const settings = testSettings({ provider: "ollama", baseUrl: baseUrlFor("ollama", server.url), model: "m", includeActiveNote: false, mcpServers: [pidStub("ev")] });
		const host: DiscoverHost = { app: asObsidianApp(app), settings, saveSettings: () => Promise.resolve(), mcp: () => Promise.resolve(hub) };
		const requests = serveToolSteps(server, "ollama", [[{ name: "ev__shot", args: "{}" }], "A small square."]);
		const events: ChatEvent[] = [];
		const runtime = await createChatRuntime(host, (e) => events.push(e), { ask: () => Promise.resolve({ kind: "once" }) });
		await runtime.chat.newSession();
		await runtime.chat.sendMessage("Take a screenshot.");
		const result = runtime.chat.messages.find((m) => m.role === "tool");
		const saved = result?.attachments?.[0];
		expect(saved?.path).toMatch(/^Discover\/Chats\/attachments\/.+\.png$/);
		expect(Buffer.from(await app.vault.adapter.readBinary(saved?.path ?? "")).toString("base64")).toBe(png);
		const card = events.flatMap((e) => (e.type === "tool" && e.card.state === "done" ? [e.card] : [])).at(-1);
		expect(card?.images?.map((i) => i.path)).toEqual([saved?.path]);
		// The request after the call carries the image, as the model's dialect takes images.
		expect(requests()[1]?.body).toContain(png);
		const reloaded = await runtime.sessions.load(runtime.chat.sessionId ?? "");
		expect(reloaded.messages.find((m) => m.role === "tool")?.attachments).toEqual(result?.attachments);
	});

	it("loads no hub when no server is turned on and no agent names one", async () => {
		let loads = 0;
		const app = await createTestApp();
		const settings = testSettings({ provider: "ollama", baseUrl: baseUrlFor("ollama", server.url), model: "m", includeActiveNote: false, mcpServers: [{ ...pidStub("off"), enabled: false }] });
		const host: DiscoverHost = { app: asObsidianApp(app), settings, saveSettings: () => Promise.resolve(), mcp: () => (loads++, Promise.reject(new Error("not loaded"))) };
		serveToolSteps(server, "ollama", ["One."]);
		const runtime = await createChatRuntime(host, () => undefined);
		await runtime.chat.newSession();
		await runtime.chat.sendMessage("hello");
		expect(loads).toBe(0);
	});
});

describe("the OAuth client Discover registered with a server", () => {
	const URL_A = "https://mcp.example.com/mcp";
	it("is kept in secret storage per server, read back whole, and a damaged one is not used", async () => {
		const app = asObsidianApp(await createTestApp());
		const saved = { registrationEndpoint: "https://auth.test/register", client: { client_id: "c1", client_secret: "s1", token_endpoint_auth_method: "client_secret_post" } };
		saveRegisteredClient(app, "Remote one", URL_A, saved);
		expect(oauthClientSecretName("Remote one")).toBe("discover-mcp-oauthclient-remote-one");
		expect(app.secretStorage.getSecret("discover-mcp-oauthclient-remote-one")).toContain("s1");
		expect(readRegisteredClient(app, "Remote one", URL_A)).toEqual(saved);
		expect(readRegisteredClient(app, "another", URL_A)).toBeUndefined();
		for (const bad of ["{", "null", JSON.stringify({ serverUrl: URL_A, client: { client_id: "c" } }), JSON.stringify({ serverUrl: URL_A, registrationEndpoint: "x", client: { client_id: 5 } }), JSON.stringify({ serverUrl: URL_A, registrationEndpoint: "x", client: { client_id: "c", client_secret: 7 } })]) {
			app.secretStorage.setSecret("discover-mcp-oauthclient-remote-one", bad);
			expect(readRegisteredClient(app, "Remote one", URL_A)).toBeUndefined();
		}
	});

	it("a server whose address changed (a synced data.json pointing it elsewhere) gets neither the client nor the tokens saved for the old one", async () => {
		const app = asObsidianApp(await createTestApp());
		saveRegisteredClient(app, "work", URL_A, { registrationEndpoint: "https://auth.test/register", client: { client_id: "c1", client_secret: "s1" } });
		saveTokens(app, "work", URL_A, { access_token: "at", refresh_token: "rt", token_type: "Bearer" });
		expect(readTokens(app, "work", URL_A)?.refresh_token).toBe("rt");
		expect(readRegisteredClient(app, "work", "https://attacker.example/mcp")).toBeUndefined();
		expect(readTokens(app, "work", "https://attacker.example/mcp")).toBeUndefined();
		// Tokens saved by an earlier build (not bound to an address) are not used: the person signs in again.
		app.secretStorage.setSecret(oauthSecretName("work"), JSON.stringify({ access_token: "old", token_type: "Bearer" }));
		expect(readTokens(app, "work", URL_A)).toBeUndefined();
	});

	it("the client record and a server's tokens never share a secret, whatever the two servers are called", () => {
		fc.assert(
			fc.property(fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }), (a, b) => {
				expect(oauthClientSecretName(a)).not.toBe(oauthSecretName(b));
			}),
		);
		// The names that collided: "foo"'s client and "client foo"'s tokens.
		expect(oauthClientSecretName("foo")).not.toBe(oauthSecretName("client foo"));
	});
});
