// @vitest-environment happy-dom
// "Use N" beside the context size, on the real plugin's settings tab: the context length the server
// reports for the selected model becomes THAT model's own context size (Budgets per model, shown
// there at once), the general one other models follow stays, chats with the model then use it, and
// a combination the checks refuse is not saved and says why.
import { describe, expect, it } from "vitest";
import { flush } from "../obsidian/harness";
import { openSettingTab } from "./settingTabHarness";
import { budgetFor } from "../../src/settings/budgetFor";
import type { SettingsAdapter } from "../../src/ui/settings/settingsProvider";

/** A server listing llama3 (no length listed) that reports 32,768 tokens for it when asked. */
const server: SettingsAdapter = {
	listModels: () => Promise.resolve([{ id: "llama3" }, { id: "qwen3:8b" }]),
	modelContextLength: (model) => Promise.resolve(model === "llama3" ? 32768 : undefined),
	testConnection: () => Promise.resolve({ ok: true, kind: "ok", message: "Connected." }),
};

async function setup(data: Record<string, unknown>) {
	const tab = await openSettingTab({ data: { model: "llama3", ...data }, makeAdapter: () => Promise.resolve(server) });
	await flush();
	const button = tab.row("Context size").find("button") as HTMLButtonElement;
	return { ...tab, button };
}

describe("Use N (the server's context length)", () => {
	it("sets the selected model's own context size, shows it under Budgets per model, and leaves the general one", async () => {
		const { plugin, el, row, button } = await setup({ maxPromptTokens: 8192 });
		expect(button.hasClass("discover-chat-hidden")).toBe(false);
		expect(button.getAttribute("aria-label")).toBe(`Use ${(32768).toLocaleString()} tokens for llama3`);
		expect(el.find('input[aria-label="llama3: Context size"]')).toBeNull();

		button.click();
		await flush();
		expect(plugin.settings.modelBudgets).toEqual({ llama3: { maxPromptTokens: 32768 } });
		expect(plugin.settings.maxPromptTokens).toBe(8192);
		expect((row("Context size").find("input") as HTMLInputElement).value).toBe("8192");
		expect((el.find('input[aria-label="llama3: Context size"]') as HTMLInputElement | null)?.value).toBe("32768");
		expect(row("Context size").findAll(".discover-chat-setting-message").map((m) => m.getText())).toContain(`Context size for llama3 is now ${(32768).toLocaleString()} tokens.`);
		// Chats with the model use it; other models keep the general size.
		expect(budgetFor(plugin.settings, "llama3").maxPromptTokens).toBe(32768);
		expect(budgetFor(plugin.settings, "qwen3:8b").maxPromptTokens).toBe(8192);
	});

	it("keeps the model's other fields, and refuses a size its reserve no longer fits, saying why", async () => {
		const kept = await setup({ modelBudgets: { llama3: { reservedResponseTokens: 1024, recentMessagesToKeep: 4 } } });
		kept.button.click();
		await flush();
		expect(kept.plugin.settings.modelBudgets).toEqual({ llama3: { reservedResponseTokens: 1024, recentMessagesToKeep: 4, maxPromptTokens: 32768 } });
		kept.tab.hide();
		kept.tab.containerEl.detach();

		const refused = await setup({ maxPromptTokens: 65536, modelBudgets: { llama3: { reservedResponseTokens: 40000 } } });
		refused.button.click();
		await flush();
		expect(refused.plugin.settings.modelBudgets).toEqual({ llama3: { reservedResponseTokens: 40000 } });
		const said = refused.row("Context size").findAll(".discover-chat-setting-message").map((m) => (m.hasClass("discover-chat-hidden") ? "" : m.getText())).join(" ");
		expect(said).toContain("Not saved for llama3:");
		expect(said).toContain("40,000");
	});
});
