// @vitest-environment happy-dom
// The settings tab's Agents section on the real plugin: it lists the agents (the default one is
// created on first use, and approved as made) with their model, note and approval state, a broken
// note with its problem, New agent creates a note from the template (approved) and opens it; and the
// budgets per model are editable.
import { describe, expect, it } from "vitest";
import { createTestApp, flush, typeInto } from "../obsidian/harness";
import { openSettingTab } from "./settingTabHarness";
import { until } from "../support/chatHarness";

async function setup(files: Record<string, string> = {}, data: unknown = {}) {
	const { plugin, app, el } = await openSettingTab({ data, app: await createTestApp({ files }), makeAdapter: () => Promise.reject(new Error("no server")) });
	const agentRows = () =>
		el.findAll(".discover-chat-agent-list .setting-item").map((s) => {
			const desc = s.find(".setting-item-description");
			const state = desc?.find(".discover-chat-agent-state")?.getText();
			const text = (desc?.getText() ?? "").slice(0, (desc?.getText() ?? "").length - (state?.length ?? 0));
			return `${s.find(".setting-item-name")?.getText() ?? ""} | ${text}${state === undefined ? "" : ` [${state}]`}`;
		});
	return { plugin, app, el, agentRows };
}

describe("Settings tab: agents", () => {
	it("lists the agents with their model, note and approval state; the default agent is created (approved) the first time", async () => {
		const { app, agentRows } = await setup({ "Discover/Agents/Writer.md": "---\nmodel: qwen3:8b\n---\nVerse.", "Discover/Agents/Broken.md": "---\ntools: [rm_rf]\n---\nx" });
		await until(() => agentRows().length === 2, "the agents listed");
		expect(agentRows()).toEqual([
			"Broken | Discover/Agents/Broken.md: `tools` names an unknown tool, “rm_rf”. The tools are: search_notes, read_note, list_notes, get_active_note, create_note, edit_note.",
			// A note already in the folder was never approved here: it asks once, on its review card.
			"Writer | qwen3:8b · Discover/Agents/Writer.md [Needs review]",
		]);
		// The folder had agents: no default was added among them.
		expect(app.vault.getFileByPath("Discover/Agents/Default.md")).toBeNull();

		const fresh = await setup();
		await until(() => fresh.agentRows().length === 1, "the default agent");
		expect(fresh.agentRows()).toEqual(["Default | Chat's model · Discover/Agents/Default.md [Approved]"]);
	});

	it("New agent creates a note from the template, opens it and lists it", async () => {
		const { app, el, agentRows } = await setup();
		await until(() => agentRows().length === 1, "the default agent");
		// Its own row, named and described like every setting, not a lone button.
		const row = el.findAll(".setting-item").find((r) => r.querySelector(".setting-item-name")?.textContent === "New agent")!;
		expect(row.querySelector(".setting-item-description")?.textContent).toBe("Makes an agent note from a template in the agents folder and opens it.");
		row.find("button").click();
		await until(() => agentRows().length === 2, "the new agent listed");
		expect(agentRows()[1]).toBe("New agent | Chat's model · Discover/Agents/New agent.md [Approved]");
		expect(await app.vault.adapter.read("Discover/Agents/New agent.md")).toContain("temperature: 0.7");
		expect(app.workspace.getActiveFile()?.path).toBe("Discover/Agents/New agent.md");
	});

	it("budgets per model: add a model, set its context size, refuse a value the checks refuse, remove it", async () => {
		const { plugin, el } = await setup();
		const addInput = el.find('input[aria-label="Add a model"]') as HTMLInputElement;
		typeInto(addInput, "qwen3:8b");
		el.findAll("button").find((b) => b.getText() === "Add")!.click();
		await until(() => el.find('input[aria-label="qwen3:8b: Context size"]') !== null, "the model's fields");
		const size = el.find('input[aria-label="qwen3:8b: Context size"]') as HTMLInputElement;
		typeInto(size, "32768");
		await flush();
		expect(plugin.settings.modelBudgets).toEqual({ "qwen3:8b": { maxPromptTokens: 32768 } });
		typeInto(size, "100");
		await flush();
		expect(plugin.settings.modelBudgets).toEqual({ "qwen3:8b": { maxPromptTokens: 32768 } });
		expect(size.closest(".setting-item")?.find(".discover-chat-setting-message")?.getText()).not.toBe("");
		el.findAll("button").find((b) => b.getText() === "Remove")!.click();
		await flush();
		expect(plugin.settings.modelBudgets).toEqual({});
	});
});
