// @vitest-environment happy-dom
// Settings → MCP servers on the real plugin: bad JSON gets a clear message and the text stays; a
// paste with secrets asks, moves them into secret storage and never writes them to data.json; each
// server's row shows its state; Disable turns it off; the tools of a started server can be turned off.
import { describe, expect, it } from "vitest";
import { flush, readPluginDataText, typeInto } from "../obsidian/harness";
import { openSettingTab } from "./settingTabHarness";
import { until } from "../support/chatHarness";
import { stubConfig } from "../support/mcpStub";

const PASTE = JSON.stringify({
	mcpServers: {
		github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_abcdefghijklmnop1234" } },
		remote: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer abcdefghijklmnop" } },
	},
});

function pasteBox(el: HTMLElement): HTMLTextAreaElement {
	const box = el.find("textarea.discover-mcp-paste") as HTMLTextAreaElement | null;
	if (box === null) throw new Error("no paste box");
	return box;
}
const addButton = (el: HTMLElement): HTMLButtonElement => el.find("button.discover-mcp-add") as HTMLButtonElement;
const names = (el: HTMLElement): string[] => el.findAll(".discover-mcp-server > .setting-item:not(.discover-mcp-secret) .setting-item-name").map((n) => n.getText());

describe("Settings tab: MCP servers", () => {
	it("bad JSON: a clear message, nothing added, the text kept", async () => {
		const { el, plugin, messageOf } = await openSettingTab();
		const bad = '{"mcpServers": {"a": {"command": "npx",}}';
		typeInto(pasteBox(el), bad);
		addButton(el).click();
		await flush();
		expect(messageOf("Add servers")).toMatch(/^This is not valid JSON: .+ Nothing was added; your text is kept\.$/);
		expect(pasteBox(el).value).toBe(bad);
		expect(plugin.settings.mcpServers).toEqual([]);
	});

	it("after an add the box is empty, and Add again says there is nothing to add (not that the server exists)", async () => {
		const { el, plugin, messageOf } = await openSettingTab();
		typeInto(pasteBox(el), JSON.stringify({ mcpServers: { files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] } } }));
		addButton(el).click();
		await until(() => plugin.settings.mcpServers.length === 1, "the server added");
		await flush();
		expect(pasteBox(el).value).toBe("");
		addButton(el).click();
		await flush();
		expect(plugin.settings.mcpServers).toHaveLength(1);
		expect(messageOf("Add servers")).not.toMatch(/files/);
	});

	it("secrets in a paste: asked, moved to secret storage on yes, never in data.json; Cancel adds nothing", async () => {
		const { el, app, plugin } = await openSettingTab();
		typeInto(pasteBox(el), PASTE);
		addButton(el).click();
		await flush();
		const confirm = el.find(".discover-mcp-confirm");
		expect(confirm?.getText()).toMatch(/look like secrets/);
		expect(confirm?.getText()).toContain("github: GITHUB_PERSONAL_ACCESS_TOKEN → secret “mcp-github-github-personal-access-token”");
		expect(plugin.settings.mcpServers).toEqual([]);
		(confirm?.findAll("button").find((b) => b.getText() === "Cancel") as HTMLButtonElement).click();
		await flush();
		expect(plugin.settings.mcpServers).toEqual([]);
		expect(pasteBox(el).value).toBe(PASTE);

		addButton(el).click();
		await flush();
		(el.find(".discover-mcp-confirm")?.findAll("button").find((b) => b.getText() === "Move to secret storage and add") as HTMLButtonElement).click();
		await until(() => plugin.settings.mcpServers.length === 2, "the servers added");
		expect(app.secretStorage.getSecret("mcp-github-github-personal-access-token")).toBe("ghp_abcdefghijklmnop1234");
		expect(app.secretStorage.getSecret("mcp-remote-authorization")).toBe("Bearer abcdefghijklmnop");
		const data = (await readPluginDataText(app)) ?? "";
		expect(data).toContain("mcp-github-github-personal-access-token");
		expect(data).not.toContain("ghp_abcdefghijklmnop1234");
		expect(data).not.toContain("Bearer abcdefghijklmnop");
		await flush();
		await until(() => names(el).length === 2, "the rows");
		expect(names(el)).toEqual(["github", "remote"]);
		// Each secret value picks its secret from secret storage.
		expect(el.findAll(".discover-mcp-secret .setting-item-name").map((n) => n.getText())).toEqual(["Secret for GITHUB_PERSONAL_ACCESS_TOKEN", "Secret for Authorization"]);
	});

	it("a paste never overwrites a secret already in secret storage, whether it was there at Add or came before the yes", async () => {
		const { el, app, plugin } = await openSettingTab();
		// Another server's key, already under the name the paste would pick.
		app.secretStorage.setSecret("mcp-github-github-personal-access-token", "ghp_anotherserverskey5678");
		typeInto(pasteBox(el), PASTE);
		addButton(el).click();
		await flush();
		const confirm = el.find(".discover-mcp-confirm");
		expect(confirm?.getText()).toContain("github: GITHUB_PERSONAL_ACCESS_TOKEN → secret “mcp-github-github-personal-access-token-2”");
		// A secret made (in another window) between the question and the yes.
		app.secretStorage.setSecret("mcp-remote-authorization", "Bearer somebodyelses1234");
		(confirm?.findAll("button").find((b) => b.getText() === "Move to secret storage and add") as HTMLButtonElement).click();
		await until(() => plugin.settings.mcpServers.length === 2, "the servers added");
		expect(app.secretStorage.getSecret("mcp-github-github-personal-access-token")).toBe("ghp_anotherserverskey5678");
		expect(app.secretStorage.getSecret("mcp-remote-authorization")).toBe("Bearer somebodyelses1234");
		expect(app.secretStorage.getSecret("mcp-github-github-personal-access-token-2")).toBe("ghp_abcdefghijklmnop1234");
		expect(app.secretStorage.getSecret("mcp-remote-authorization-2")).toBe("Bearer abcdefghijklmnop");
		expect(plugin.settings.mcpServers.map((s) => s.env ?? s.headers)).toEqual([{ GITHUB_PERSONAL_ACCESS_TOKEN: { secret: "mcp-github-github-personal-access-token-2" } }, { Authorization: { secret: "mcp-remote-authorization-2" } }]);
	});

	it("the last check before saving: two pasted servers named alike are refused with a clear message, nothing added, no secret written, the text kept", async () => {
		const { el, app, plugin, messageOf } = await openSettingTab();
		const twice = JSON.stringify({ mcpServers: { GitHub: { command: "npx", env: { GITHUB_TOKEN: "ghp_abcdefghijklmnop1234" } }, github: { command: "uvx" } } });
		typeInto(pasteBox(el), twice);
		addButton(el).click();
		await flush();
		(el.find(".discover-mcp-confirm")?.findAll("button").find((b) => b.getText() === "Move to secret storage and add") as HTMLButtonElement).click();
		await flush();
		await flush();
		expect(messageOf("Add servers")).toBe("Two servers would be named “github” (names are compared without case): rename one. Nothing was added; your text is kept.");
		expect(plugin.settings.mcpServers).toEqual([]);
		expect(app.secretStorage.listSecrets()).toEqual([]);
		expect(pasteBox(el).value).toBe(twice);
	});

	it("a server's row shows its state; its tools show once started and can be turned off; Disable turns it off", async () => {
		const stub = { ...stubConfig("stub"), enabled: true };
		const { el, plugin } = await openSettingTab({ data: { settingsVersion: 3, mcpServers: [stub] } });
		await until(() => el.find(".discover-mcp-state")?.getText().startsWith("Not started") === true, "the idle state");
		const hub = await plugin.mcp();
		await hub.toolsFor(undefined);
		await until(() => el.find(".discover-mcp-state")?.getText() === "Connected", "connected");
		const toolRows = el.findAll(".discover-mcp-tools .setting-item");
		expect(toolRows.length).toBeGreaterThan(3);
		const echo = toolRows.find((r) => r.find(".setting-item-name")?.getText() === "echo");
		(echo?.find(".checkbox-container") as HTMLElement).click();
		await flush();
		expect(plugin.settings.mcpServers[0]?.disabledTools).toEqual(["echo"]);
		expect((await hub.toolsFor(undefined)).tools.map((t) => t.name)).not.toContain("stub__echo");
		expect(el.find(".discover-mcp-log summary")?.getText()).toMatch(/^Log \(\d+ lines?\)$/);
		(el.findAll(".discover-mcp-server button").find((b) => b.getText() === "Disable") as HTMLButtonElement).click();
		await until(() => el.find(".discover-mcp-state")?.getText() === "Disabled", "disabled");
		expect(plugin.settings.mcpServers[0]?.enabled).toBe(false);
		expect(hub.state("stub")?.status).toBe("disabled");
		plugin.unload();
	});
});
