// @vitest-environment happy-dom
// The last check before MCP servers are saved, on the form's path: were the form's own checks ever to
// let a literal secret through, the settings refuse to save it, say why at the form, and keep what
// was typed. The form's check is replaced here by one that lets everything through (the paste's
// path meets the same check for real in SettingTab.mcp.test.ts).
import { describe, expect, it, vi } from "vitest";
import { flush, readPluginDataText, typeInto } from "../obsidian/harness";
import { openSettingTab } from "./settingTabHarness";

vi.mock("../../src/settings/mcpForm", async (original) => {
	const real = await original<typeof import("../../src/settings/mcpForm")>();
	return {
		...real,
		serverFromForm: (form: import("../../src/settings/mcpForm").McpForm) => ({ ok: true, server: { name: form.name.trim(), enabled: true, command: form.command.trim(), env: Object.fromEntries(form.env.map((r) => [r.key, r.text])) } }),
	};
});

describe("Settings tab: the last check before MCP servers are saved (form)", () => {
	it("a literal secret the form let through: refused at the form, nothing saved, everything typed kept", async () => {
		const { el, app, plugin } = await openSettingTab();
		const body = (): HTMLElement => el.find(".discover-mcp-form-body");
		const button = (text: string): HTMLButtonElement => body().findAll("button").find((b) => b.getText() === text) as HTMLButtonElement;
		typeInto(body().querySelector("#discover-mcp-form-name") as HTMLInputElement, "gh");
		typeInto(body().querySelector("#discover-mcp-form-command") as HTMLInputElement, "npx");
		button("Add a variable").click();
		await flush();
		typeInto(body().find("input.discover-mcp-form-key") as HTMLInputElement, "GITHUB_TOKEN");
		typeInto(body().find("input.discover-mcp-form-text") as HTMLInputElement, "ghp_abcdefghijklmnop1234");
		button("Add server").click();
		await flush();
		await flush();
		expect(body().findAll("[role=alert]").map((m) => m.getText())).toContain("The value of “GITHUB_TOKEN” (gh) looks like a secret and would be saved as text in the data file. Nothing was added; your text is kept.");
		expect(plugin.settings.mcpServers).toEqual([]);
		expect((await readPluginDataText(app)) ?? "").not.toContain("ghp_abcdefghijklmnop1234");
		expect((body().querySelector("#discover-mcp-form-name") as HTMLInputElement).value).toBe("gh");
		expect((body().find("input.discover-mcp-form-text") as HTMLInputElement).value).toBe("ghp_abcdefghijklmnop1234");
	});
});
