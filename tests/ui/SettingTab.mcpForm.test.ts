// @vitest-environment happy-dom
// Settings → MCP servers → Add a server by form, on the real plugin: every problem shows at its field
// and nothing typed is lost (switching transport included); a secret is chosen from secret storage
// and only its name reaches data.json; a typed token is refused as text and moved into secret
// storage on the person's click; an added server shows in the list.
import { describe, expect, it } from "vitest";
import { flush, readPluginDataText, selectOption, typeInto } from "../obsidian/harness";
import { openSettingTab } from "./settingTabHarness";
import { until } from "../support/chatHarness";

function formOf(el: HTMLElement) {
	const body = el.find(".discover-mcp-form-body");
	if (body === null) throw new Error("no form");
	const field = (id: string): HTMLInputElement => {
		const input = body.querySelector<HTMLInputElement>(`#discover-mcp-form-${id}`);
		if (input === null) throw new Error(`no field ${id}`);
		return input;
	};
	const transport = (): HTMLSelectElement => body.findAll(".discover-mcp-form-field").find((r) => r.find(".setting-item-name")?.getText() === "Transport")?.find("select") as HTMLSelectElement;
	const button = (text: string): HTMLButtonElement => {
		const b = body.findAll("button").find((x) => x.getText() === text);
		if (b === undefined) throw new Error(`no button ${text}`);
		return b as HTMLButtonElement;
	};
	const messages = (): string[] => body.findAll("[role=alert]").map((m) => m.getText());
	const values = () => body.findAll(".discover-mcp-form-value");
	return { body, field, transport, button, messages, values };
}

/** Waits (up to 2 s) for data.json to hold `text`. */
async function savedWith(app: Parameters<typeof readPluginDataText>[0], text: string): Promise<void> {
	for (let i = 0; i < 200; i++) {
		if (((await readPluginDataText(app)) ?? "").includes(text)) return;
		await new Promise((r) => window.setTimeout(r, 10));
	}
	throw new Error(`data.json never held ${text}`);
}

/** The form filled for server "gh" (npx) with GITHUB_TOKEN typed as a literal value, then Add server clicked: the form as it asks about the token. */
async function typedTokenAdded(el: HTMLElement): Promise<ReturnType<typeof formOf>> {
	let f = formOf(el);
	typeInto(f.field("name"), "gh");
	typeInto(f.field("command"), "npx");
	f.button("Add a variable").click();
	await flush();
	f = formOf(el);
	typeInto(f.values()[0]?.find("input.discover-mcp-form-key") as HTMLInputElement, "GITHUB_TOKEN");
	typeInto(f.values()[0]?.find("input.discover-mcp-form-text") as HTMLInputElement, "ghp_abcdefghijklmnop1234");
	f.button("Add server").click();
	await flush();
	return formOf(el);
}

describe("Settings tab: add an MCP server by form", () => {
	it("every problem at its field; nothing added; everything typed kept, across a transport switch", async () => {
		const { el, plugin } = await openSettingTab({ data: { settingsVersion: 3, mcpServers: [{ name: "github", enabled: true, command: "npx" }] } });
		let f = formOf(el);
		typeInto(f.field("name"), "GitHub");
		typeInto(f.body.find("textarea.discover-mcp-form-args") as HTMLTextAreaElement, "-y\nserver-x");
		f.button("Add a variable").click();
		await flush();
		f = formOf(el);
		typeInto(f.values()[0]?.find("input.discover-mcp-form-key") as HTMLInputElement, "GITHUB_TOKEN");
		typeInto(f.values()[0]?.find("input.discover-mcp-form-text") as HTMLInputElement, "ghp_abcdefghijklmnop1234");
		typeInto(f.field("timeout"), "0");
		f.button("Add server").click();
		await flush();
		f = formOf(el);
		expect(f.messages()).toEqual([
			"A server with this name is already set up: choose another name.",
			"Enter the command that starts the server.",
			"The value of “GITHUB_TOKEN” looks like a secret, so it is not saved as text in the data file. Move it to secret storage, or pick a secret instead of text.Move to secret storage as “mcp-github-github-token”",
			"Enter a number of seconds from 1 to 3600, or leave it empty.",
			"Nothing was added: fix the marked fields. Everything you typed is kept.",
		]);
		expect(f.field("name").getAttribute("aria-invalid")).toBe("true");
		expect(document.activeElement).toBe(f.field("name"));
		expect(plugin.settings.mcpServers.map((s) => s.name)).toEqual(["github"]);
		// Switch to HTTP and back: the command side's text is all still there.
		selectOption(f.transport(), "http");
		await flush();
		f = formOf(el);
		typeInto(f.field("url"), "https://mcp.example.com/mcp");
		selectOption(f.transport(), "stdio");
		await flush();
		f = formOf(el);
		expect(f.field("name").value).toBe("GitHub");
		expect((f.body.find("textarea.discover-mcp-form-args") as HTMLTextAreaElement).value).toBe("-y\nserver-x");
		expect((f.values()[0]?.find("input.discover-mcp-form-text") as HTMLInputElement).value).toBe("ghp_abcdefghijklmnop1234");
		expect(f.field("timeout").value).toBe("0");
		selectOption(f.transport(), "http");
		await flush();
		expect(formOf(el).field("url").value).toBe("https://mcp.example.com/mcp");
		expect((await readPluginDataText(plugin.app as never)) ?? "").not.toContain("ghp_abcdefghijklmnop1234");
	});

	it("a header's secret chosen from secret storage: only its name reaches data.json; the server shows in the list", async () => {
		const { el, app, plugin } = await openSettingTab();
		app.secretStorage.setSecret("remote-key", "Bearer abcdefghijklmnop");
		let f = formOf(el);
		typeInto(f.field("name"), "remote");
		selectOption(f.transport(), "http");
		await flush();
		f = formOf(el);
		typeInto(f.field("url"), "https://mcp.example.com/mcp");
		f.button("Add a header").click();
		await flush();
		f = formOf(el);
		typeInto(f.values()[0]?.find("input.discover-mcp-form-key") as HTMLInputElement, "Authorization");
		selectOption(f.values()[0]?.find("select.dropdown") as HTMLSelectElement, "secret");
		await flush();
		f = formOf(el);
		// No secret picked yet: refused at its row.
		f.button("Add server").click();
		await flush();
		f = formOf(el);
		expect(f.messages()).toContain("Choose the secret for “Authorization” from secret storage.");
		selectOption(f.values()[0]?.find(".discover-mcp-form-secret select") as HTMLSelectElement, "remote-key");
		f.button("Add server").click();
		await until(() => plugin.settings.mcpServers.length === 1, "the server added");
		expect(plugin.settings.mcpServers[0]).toEqual({ name: "remote", enabled: true, url: "https://mcp.example.com/mcp", headers: { Authorization: { secret: "remote-key" } } });
		await savedWith(app, "remote-key");
		expect((await readPluginDataText(app)) ?? "").not.toContain("Bearer abcdefghijklmnop");
		expect(el.findAll(".discover-mcp-server > .setting-item:not(.discover-mcp-secret) .setting-item-name").map((n) => n.getText())).toEqual(["remote"]);
		// The form is empty again for the next server.
		expect(formOf(el).field("name").value).toBe("");
	});

	it("a typed token: moved into secret storage on the person's click, then added as a reference", async () => {
		const { el, app, plugin } = await openSettingTab();
		let f = await typedTokenAdded(el);
		expect(app.secretStorage.getSecret("mcp-gh-github-token")).toBeNull();
		f.button("Move to secret storage as “mcp-gh-github-token”").click();
		await flush();
		expect(app.secretStorage.getSecret("mcp-gh-github-token")).toBe("ghp_abcdefghijklmnop1234");
		f = formOf(el);
		expect(f.messages()).toEqual([]);
		f.button("Add server").click();
		await flush();
		await until(() => plugin.settings.mcpServers.length === 1, "the server added");
		expect(plugin.settings.mcpServers[0]?.env).toEqual({ GITHUB_TOKEN: { secret: "mcp-gh-github-token" } });
		await savedWith(app, "mcp-gh-github-token");
		expect((await readPluginDataText(app)) ?? "").not.toContain("ghp_abcdefghijklmnop1234");
	});

	it("a typed token's secret name is chosen when it is moved: a secret made after the button was drawn is never overwritten", async () => {
		const { el, app, plugin } = await openSettingTab();
		let f = await typedTokenAdded(el);
		const move = f.body.findAll("button").find((b) => b.getText().startsWith("Move to secret storage")) as HTMLButtonElement;
		// Made elsewhere (another window, another server's form) after the button was drawn.
		app.secretStorage.setSecret("mcp-gh-github-token", "ghp_someoneelseskey98765");
		move.click();
		await flush();
		expect(app.secretStorage.getSecret("mcp-gh-github-token")).toBe("ghp_someoneelseskey98765");
		expect(app.secretStorage.getSecret("mcp-gh-github-token-2")).toBe("ghp_abcdefghijklmnop1234");
		formOf(el).button("Add server").click();
		await until(() => plugin.settings.mcpServers.length === 1, "the server added");
		expect(plugin.settings.mcpServers[0]?.env).toEqual({ GITHUB_TOKEN: { secret: "mcp-gh-github-token-2" } });
	});
});
