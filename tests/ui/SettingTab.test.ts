// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import type { ConnectionDiagnosis, ModelInfo } from "../../src/providers/types";
import { asObsidianApp, createSecretThroughUi, flush, loadPlugin, readPluginDataText, selectOption, showSettingTab, typeInto } from "../obsidian/harness";
import DiscoverPlugin from "../../src/main";
import { DEFAULT_SETTINGS } from "../../src/settings/settings";
import { setLanguage } from "../../src/i18n";
import { DiscoverSettingTab } from "../../src/ui/settings/SettingTab";
import type { SettingsAdapter } from "../../src/ui/settings/settingsProvider";

class FakeAdapter implements SettingsAdapter {
	calls: string[] = [];
	constructor(
		public models: ModelInfo[] | Error = [{ id: "llama3.2" }, { id: "qwen3:8b", contextLength: 40960 }],
		public contextLengths: Record<string, number> = { "llama3.2": 131072 },
		public diagnosis: ConnectionDiagnosis = { ok: true, kind: "ok", message: "Connected to Ollama.", latencyMs: 12.4 },
	) {}
	listModels(): Promise<ModelInfo[]> {
		this.calls.push("listModels");
		return this.models instanceof Error ? Promise.reject(this.models) : Promise.resolve(this.models);
	}
	modelContextLength(model: string): Promise<number | undefined> {
		this.calls.push(`contextLength ${model}`);
		return Promise.resolve(this.contextLengths[model]);
	}
	testConnection(): Promise<ConnectionDiagnosis> {
		this.calls.push("testConnection");
		return Promise.resolve(this.diagnosis);
	}
}

let tab: DiscoverSettingTab | null = null;
afterEach(() => {
	tab?.hide();
	tab?.containerEl.detach();
	tab = null;
});

async function setup(adapter = new FakeAdapter(), data?: unknown) {
	const { plugin, app } = await loadPlugin(DiscoverPlugin, data === undefined ? {} : { data });
	const settingsTab = new DiscoverSettingTab(asObsidianApp(app), plugin, () => Promise.resolve(adapter));
	tab = settingsTab;
	document.body.appendChild(settingsTab.containerEl);
	showSettingTab(settingsTab);
	await flush();
	const el = settingsTab.containerEl;
	const row = (name: string): HTMLElement => {
		const found = el.findAll(".setting-item").find((s) => s.find(".setting-item-name")?.getText() === name);
		if (!found) throw new Error(`No setting named ${name}`);
		return found;
	};
	const input = (name: string): HTMLInputElement => row(name).find("input") as HTMLInputElement;
	const messageOf = (name: string): string => {
		const m = row(name).find(".discover-chat-setting-message");
		return m && !m.hasClass("discover-chat-hidden") ? m.getText() : "";
	};
	const saved = async (): Promise<Record<string, unknown>> => JSON.parse((await readPluginDataText(app)) ?? "{}") as Record<string, unknown>;
	return { plugin, app, el, row, input, messageOf, saved, adapter };
}

describe("Settings tab: the budget", () => {
	it("shows number inputs with minimums and headings", async () => {
		const { el, input } = await setup();
		const max = input("Context size");
		expect(max.type).toBe("number");
		expect(max.min).toBe("1024");
		expect(input("Tokens reserved for the answer").min).toBe("64");
		expect(el.findAll(".setting-item-heading").map((h) => h.getText())).toEqual(expect.arrayContaining(["Model and connection", "Chat", "Storage"]));
	});

	it("an invalid value shows a message under the setting and is not saved", async () => {
		const { input, messageOf, plugin, app } = await setup();
		typeInto(input("Context size"), "512");
		await flush();
		expect(messageOf("Context size")).toBe("Must be at least 1,024 tokens.");
		expect(plugin.settings.maxPromptTokens).toBe(8192);
		// Opening the tab may save the approval of the default agent it creates; never the invalid value.
		const saved = await readPluginDataText(app);
		expect(saved === null ? 8192 : (JSON.parse(saved) as { maxPromptTokens: number }).maxPromptTokens).toBe(8192);
		typeInto(input("Context size"), "");
		expect(messageOf("Context size")).toBe("Enter a number.");
	});

	it("a valid value is saved at once and clears the message", async () => {
		const { input, messageOf, plugin, saved } = await setup();
		typeInto(input("Context size"), "512");
		typeInto(input("Context size"), "16384");
		await flush();
		expect(messageOf("Context size")).toBe("");
		expect(plugin.settings.maxPromptTokens).toBe(16384);
		expect((await saved()).maxPromptTokens).toBe(16384);
	});

	it("reserved must stay below the context size: message under both, nothing saved, fixed by raising the size", async () => {
		const { input, messageOf, plugin, saved } = await setup();
		typeInto(input("Tokens reserved for the answer"), "8000");
		await flush();
		expect(messageOf("Tokens reserved for the answer")).toMatch(/must leave 512 of the context size \(8,192\) for the prompt/);
		expect(messageOf("Context size")).toBe(messageOf("Tokens reserved for the answer"));
		expect(plugin.settings.reservedResponseTokens).toBe(512);
		typeInto(input("Context size"), "32768");
		await flush();
		expect(messageOf("Tokens reserved for the answer")).toBe("");
		expect(await saved()).toMatchObject({ maxPromptTokens: 32768, reservedResponseTokens: 8000 });
	});

	it("lowering the context size under the reserved tokens is refused", async () => {
		const { input, messageOf, plugin } = await setup();
		typeInto(input("Context size"), "1024");
		await flush();
		expect(plugin.settings.maxPromptTokens).toBe(1024);
		typeInto(input("Tokens reserved for the answer"), "600");
		await flush();
		expect(plugin.settings.reservedResponseTokens).toBe(512);
		expect(messageOf("Tokens reserved for the answer")).toMatch(/use at most 512/);
	});

	it("min ≤ keep, and whole numbers only", async () => {
		const { input, messageOf, plugin } = await setup();
		typeInto(input("Fewest recent messages to keep"), "7");
		await flush();
		expect(messageOf("Fewest recent messages to keep")).toMatch(/must not be more than “Recent messages to keep” \(6\)/);
		expect(messageOf("Recent messages to keep")).toMatch(/must not be more than/);
		typeInto(input("Recent messages to keep"), "2.5");
		await flush();
		expect(messageOf("Recent messages to keep")).toMatch(/whole number/);
		typeInto(input("Recent messages to keep"), "8");
		await flush();
		expect(plugin.settings).toMatchObject({ recentMessagesToKeep: 8, minRecentMessagesToKeep: 7 });
	});
});

describe("Settings tab: provider and model", () => {
	it("lists the server's models, picks one, offers its context length", async () => {
		const { row, plugin, saved, adapter, input } = await setup();
		const select = row("Model").find("select") as HTMLSelectElement;
		expect(Array.from(select.options).map((o) => o.value).slice(0, 3)).toEqual(["", "llama3.2", "qwen3:8b"]);
		const useButton = row("Context size").find("button") as HTMLButtonElement;
		expect(useButton.hasClass("discover-chat-hidden")).toBe(true);
		selectOption(select, "llama3.2");
		await flush();
		expect(plugin.settings.model).toBe("llama3.2");
		expect((row("Model").find("input") as HTMLInputElement).value).toBe("llama3.2");
		expect((await saved()).model).toBe("llama3.2");
		expect(adapter.calls).toContain("contextLength llama3.2");
		expect(useButton.hasClass("discover-chat-hidden")).toBe(false);
		// Short enough to stay on one line beside the input: the figure, the rest in the tooltip.
		expect(useButton.textContent).toBe(`Use ${(131072).toLocaleString()}`);
		expect(useButton.getAttribute("aria-label")).toBe(`Use ${(131072).toLocaleString()} tokens for llama3.2`);
		useButton.click();
		await flush();
		// The model's own context size; the general one, which other models follow, stays.
		expect(plugin.settings.modelBudgets).toEqual({ "llama3.2": { maxPromptTokens: 131072 } });
		expect(plugin.settings.maxPromptTokens).toBe(DEFAULT_SETTINGS.maxPromptTokens);
		expect(input("Context size").value).toBe(String(DEFAULT_SETTINGS.maxPromptTokens));
		// Used now: not offered again.
		expect(useButton.hasClass("discover-chat-hidden")).toBe(true);
		// A listed context length is used without asking the server again.
		selectOption(select, "qwen3:8b");
		await flush();
		expect(adapter.calls).not.toContain("contextLength qwen3:8b");
		useButton.click();
		await flush();
		expect(plugin.settings.modelBudgets).toEqual({ "llama3.2": { maxPromptTokens: 131072 }, "qwen3:8b": { maxPromptTokens: 40960 } });
		expect(plugin.settings.maxPromptTokens).toBe(DEFAULT_SETTINGS.maxPromptTokens);
	});

	it("does not offer \"Use N\" when the model already uses N tokens", async () => {
		const adapter = new FakeAdapter();
		adapter.contextLengths = { "llama3.2": DEFAULT_SETTINGS.maxPromptTokens };
		const { row } = await setup(adapter);
		selectOption(row("Model").find("select") as HTMLSelectElement, "llama3.2");
		await flush();
		expect(adapter.calls).toContain("contextLength llama3.2");
		expect((row("Context size").find("button") as HTMLButtonElement).hasClass("discover-chat-hidden")).toBe(true);
	});

	it("a model the server does not list is marked, but only when the server answered", async () => {
		const listed = await setup(new FakeAdapter(undefined, undefined, undefined), { model: "mistral" });
		const labels = (): string[] => Array.from((listed.row("Model").find("select") as HTMLSelectElement).options).map((o) => o.text);
		expect(labels()).toContain("mistral (not on the server)");
		tab?.hide();
		tab?.containerEl.detach();
		const down = await setup(new FakeAdapter(new Error("Ollama is not running at http://localhost:11434.")), { model: "mistral" });
		// No list: the text field, holding the name as it is, is the control.
		expect(down.row("Model").find("select").hasClass("discover-chat-hidden")).toBe(true);
		expect(down.input("Model").value).toBe("mistral");
		expect(down.input("Model").hasClass("discover-chat-hidden")).toBe(false);
	});

	it("asks for the base URL in a URL field", async () => {
		const { input } = await setup();
		expect(input("Base URL").type).toBe("url");
	});

	it("is one control: the server's models and Other…, which reveals a field for any name", async () => {
		const { row, input, plugin } = await setup(new FakeAdapter(), { model: "qwen3:8b" });
		const select = row("Model").find("select") as HTMLSelectElement;
		const visible = (el: HTMLElement): boolean => !el.hasClass("discover-chat-hidden");
		expect(Array.from(select.options).map((o) => o.text)).toEqual(["Choose a model", "llama3.2", "qwen3:8b", "Other…"]);
		expect(select.value).toBe("qwen3:8b");
		// The same name is never shown twice: the field waits behind "Other…".
		expect(visible(select) && !visible(input("Model"))).toBe(true);
		selectOption(select, select.options[3]!.value);
		await flush();
		expect(visible(input("Model"))).toBe(true);
		expect(plugin.settings.model).toBe("qwen3:8b");
		typeInto(input("Model"), "my-finetune");
		await flush();
		expect(plugin.settings.model).toBe("my-finetune");
		expect(select.options[select.selectedIndex]?.text).toBe("Other…");
		selectOption(select, "llama3.2");
		await flush();
		expect(plugin.settings.model).toBe("llama3.2");
		expect(visible(input("Model"))).toBe(false);
	});

	it("shows a saved model the server does not list as itself, selected, not as Other…", async () => {
		const { row, input } = await setup(new FakeAdapter(), { model: "mistral" });
		const select = row("Model").find("select") as HTMLSelectElement;
		expect(select.options[select.selectedIndex]?.text).toBe("mistral (not on the server)");
		expect(input("Model").hasClass("discover-chat-hidden")).toBe(true);
	});

	it("a failed listing is shown inline and a typed model name still saves", async () => {
		const { row, messageOf, plugin } = await setup(new FakeAdapter(new Error("Ollama is not running at http://localhost:11434.")));
		expect(messageOf("Model")).toBe("Could not list models: Ollama is not running at http://localhost:11434.");
		typeInto(row("Model").find("input") as HTMLInputElement, " mistral ");
		await flush();
		expect(plugin.settings.model).toBe("mistral");
	});

	it("a slow, older listing never overwrites a newer one", async () => {
		const adapter = new FakeAdapter();
		const { row, plugin } = await setup(adapter);
		let release: (models: ModelInfo[]) => void = () => undefined;
		adapter.listModels = () => new Promise((resolve) => (release = resolve));
		row("Model").find(".extra-setting-button").click();
		// Let the first listing reach the server before the next one starts.
		await flush();
		const slow = release;
		adapter.listModels = () => Promise.resolve([{ id: "newer-model" }]);
		selectOption(row("Provider").find("select") as HTMLSelectElement, "openai");
		await flush();
		slow([{ id: "older-model" }]);
		await flush();
		const options = Array.from((row("Model").find("select") as HTMLSelectElement).options).map((o) => o.value);
		expect(options).toContain("newer-model");
		expect(options).not.toContain("older-model");
		expect(plugin.settings.provider).toBe("openai");
	});

	it("refresh asks the server again", async () => {
		const { row, adapter } = await setup();
		const before = adapter.calls.filter((c) => c === "listModels").length;
		(row("Model").find(".extra-setting-button")).click();
		await flush();
		expect(adapter.calls.filter((c) => c === "listModels").length).toBe(before + 1);
	});

	it("switching provider follows its default address unless one was typed", async () => {
		const { row, input, plugin } = await setup();
		selectOption(row("Provider").find("select") as HTMLSelectElement, "anthropic");
		await flush();
		expect(plugin.settings.baseUrl).toBe("https://api.anthropic.com");
		expect(input("Base URL").value).toBe("https://api.anthropic.com");
		typeInto(input("Base URL"), "http://my-proxy:8080");
		selectOption(row("Provider").find("select") as HTMLSelectElement, "openai");
		await flush();
		expect(plugin.settings).toMatchObject({ provider: "openai", baseUrl: "http://my-proxy:8080" });
	});

	it("an invalid base URL is explained and not saved", async () => {
		const { input, messageOf, plugin } = await setup();
		typeInto(input("Base URL"), "localhost:11434");
		await flush();
		expect(messageOf("Base URL")).toMatch(/http:\/\/ or https:\/\//);
		expect(plugin.settings.baseUrl).toBe(DEFAULT_SETTINGS.baseUrl);
	});

	it("test connection shows the diagnosis inline", async () => {
		const adapter = new FakeAdapter(undefined, undefined, { ok: false, kind: "origin_refused", message: "Ollama refused Obsidian's origin. Set OLLAMA_ORIGINS=app://obsidian.md* and restart Ollama." });
		const { row, messageOf } = await setup(adapter);
		(row("Test connection").find("button") as HTMLButtonElement).click();
		await flush();
		expect(messageOf("Test connection")).toMatch(/OLLAMA_ORIGINS/);
		expect(row("Test connection").find(".discover-chat-setting-message").hasClass("mod-ok")).toBe(false);
	});

	it("test connection shows its finding in the person's language, the server's words folded under Details", async () => {
		const said = "invalid x-api-key";
		const adapter = new FakeAdapter(undefined, undefined, { ok: false, kind: "auth", message: `Anthropic rejected the request (HTTP 401): ${said}. Check the API key in settings.`, code: "auth_rejected", said });
		const { row } = await setup(adapter);
		setLanguage("de", "de-DE");
		try {
			(row("Test connection").find("button") as HTMLButtonElement).click();
			await flush();
			const shown = row("Test connection").find(".discover-chat-setting-message");
			const details = shown.find("details");
			expect(details.find("summary").getText()).toBe("Details");
			expect(details.find(".discover-chat-error-said").getText()).toBe(said);
			expect(shown.firstChild?.textContent).toBe("Der Server hat den API-Schlüssel abgelehnt. Prüfe ihn in den Einstellungen.");
			expect(shown.getText()).not.toContain("rejected the request");
		} finally {
			setLanguage("en", "en-US");
		}
	});

	it("the API key is linked by name; the key never reaches data.json", async () => {
		const { row, app, plugin } = await setup();
		createSecretThroughUi(app, row("API key").find("select") as HTMLSelectElement, "openai-key", "sk-very-secret");
		await flush();
		expect(plugin.settings.apiKeySecret).toBe("openai-key");
		const text = (await readPluginDataText(app)) ?? "";
		expect(text).toContain('"apiKeySecret": "openai-key"');
		expect(text).not.toContain("sk-very-secret");
	});
});

describe("Settings tab: chat and storage", () => {
	it("“Send with” switches between Enter and Ctrl/Cmd+Enter and saves the choice", async () => {
		const { row, plugin } = await setup();
		const select = row("Send with").find("select") as HTMLSelectElement;
		expect(select.value).toBe("enter");
		selectOption(select, "mod-enter");
		await flush();
		expect(plugin.settings.sendKey).toBe("mod-enter");
		selectOption(select, "enter");
		await flush();
		expect(plugin.settings.sendKey).toBe("enter");
	});

	it("toggle, system prompt with reset, folders with validation", async () => {
		const { row, input, messageOf, plugin } = await setup();
		(row("Include the active note").find(".checkbox-container")).click();
		await flush();
		expect(plugin.settings.includeActiveNote).toBe(false);
		expect(plugin.settings.loadRemoteImages).toBe(false);
		(row("Load images from the web in answers").find(".checkbox-container")).click();
		await flush();
		expect(plugin.settings.loadRemoteImages).toBe(true);
		typeInto(row("System prompt").find("textarea") as HTMLTextAreaElement, "Be brief.");
		await flush();
		expect(plugin.settings.systemPrompt).toBe("Be brief.");
		(row("System prompt").find(".extra-setting-button")).click();
		await flush();
		expect(plugin.settings.systemPrompt).toBe(DEFAULT_SETTINGS.systemPrompt);
		const size = (): string => row("System prompt").find(".discover-chat-setting-message").getText();
		expect(size()).toMatch(/^About \d+ tokens of the 7,680-token prompt budget\.$/);
		typeInto(row("System prompt").find("textarea") as HTMLTextAreaElement, "word ".repeat(5000));
		expect(size()).toMatch(/more than half of the 7,680-token prompt budget/);
		typeInto(input("Context size"), "65536");
		await flush();
		expect(size()).toMatch(/of the 65,024-token prompt budget\.$/);
		typeInto(input("Chats folder"), "../Elsewhere");
		await flush();
		expect(messageOf("Chats folder")).toMatch(/inside the vault/);
		expect(plugin.settings.sessionsFolder).toBe("Discover/Chats");
		typeInto(input("Export folder"), "Notes/AI exports ");
		await flush();
		expect(plugin.settings.exportFolder).toBe("Notes/AI exports");
	});
});

describe("Settings tab: tools", () => {
	it("read tools run unasked by default; the toggle saves", async () => {
		const { row, saved } = await setup();
		const toggle = row("Let tools read notes without asking");
		expect(toggle.find(".checkbox-container").hasClass("is-enabled")).toBe(true);
		toggle.find(".checkbox-container").click();
		await flush();
		expect((await saved()).toolsReadAllowed).toBe(false);
	});

	it("lists every always-allowed rule with its scope and when it was granted; Revoke removes that rule alone and saves", async () => {
		const toolRules = [
			{ tool: "edit_note", folder: "Projects", grantedAt: "2026-11-20T09:30:00.000Z" },
			{ tool: "edit_note", folder: "Notes", agent: "Discover/Agents/Writer.md", grantedAt: "2026-11-20T09:40:00.000Z" },
			{ tool: "create_note", folder: "", grantedAt: "2026-11-21T10:00:00.000Z" },
		];
		const { el, row, saved, plugin } = await setup(new FakeAdapter(), { ...DEFAULT_SETTINGS, toolRules });
		expect(el.findAll(".discover-chat-tool-rules .setting-item-name").map((n) => n.getText())).toEqual(["edit_note in Projects/", "edit_note in Notes/, for agent Writer", "create_note anywhere in the vault"]);
		expect(row("edit_note in Projects/").find(".setting-item-description")?.getText()).toMatch(/^Allowed since .*2026/);
		row("edit_note in Projects/").find("button").click();
		await flush();
		expect(plugin.settings.toolRules).toEqual([toolRules[1], toolRules[2]]);
		expect((await saved()).toolRules).toEqual([toolRules[1], toolRules[2]]);
		expect(el.findAll(".setting-item-name").map((n) => n.getText())).not.toContain("edit_note in Projects/");
		row("edit_note in Notes/, for agent Writer").find("button").click();
		await flush();
		row("create_note anywhere in the vault").find("button").click();
		await flush();
		expect(el.getText()).toContain("No tool is always allowed.");
	});

	it("says no tool is always allowed inside the row's description, as Obsidian lays out descriptions", async () => {
		const { el, row } = await setup();
		const none = el.findAll("div").filter((d) => d.getText() === "No tool is always allowed." && d.children.length === 0);
		expect(none).toHaveLength(1);
		// Inside the "Always allowed tools" row's description, so it gets the row's padding and indent.
		expect(none[0]?.closest(".setting-item-description")?.closest(".setting-item")).toBe(row("Always allowed tools"));
		expect(row("Always allowed tools").find(".setting-item-description")?.getText()).toContain("Revoke one to be asked again.");
	});

	it("drops the no-rule line once a rule exists and shows it again after the last revoke", async () => {
		const { el, row } = await setup(new FakeAdapter(), { ...DEFAULT_SETTINGS, toolRules: [{ tool: "edit_note", folder: "", grantedAt: "2026-11-20T09:30:00.000Z" }] });
		expect(el.getText()).not.toContain("No tool is always allowed.");
		row("edit_note anywhere in the vault").find("button").click();
		await flush();
		expect(el.getText().split("No tool is always allowed.")).toHaveLength(2);
		expect(row("Always allowed tools").getText()).toContain("No tool is always allowed.");
	});
});
