// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { Plugin, PluginSettingTab, SecretComponent, Setting, type App } from "obsidian";
import { createSecretThroughUi, createTestApp, loadPlugin, openSettingTab, readPluginDataText, ribbonIcon, runCommand, selectOption, typeInto, unloadPlugin, writePluginData } from "./harness";

class Tab extends PluginSettingTab {
	changes: string[] = [];
	override display(): void {
		const el = this.containerEl;
		el.empty();
		new Setting(el).setName("Section").setHeading();
		new Setting(el)
			.setName("Name")
			.setDesc("Desc")
			.addText((t) => t.setValue("a").onChange((v) => this.changes.push(`text ${v}`)))
			.addToggle((t) => t.setValue(true).onChange((v) => this.changes.push(`toggle ${String(v)}`)))
			.addDropdown((d) => d.addOptions({ x: "X", y: "Y" }).setValue("x").onChange((v) => this.changes.push(`dropdown ${v}`)))
			.addButton((b) => b.setButtonText("Go").onClick(() => this.changes.push("button")));
		new Setting(el).setName("Key").addComponent((c) => new SecretComponent(this.app, c).onChange((v) => this.changes.push(`secret ${v}`)));
	}
}

class TestPlugin extends Plugin {
	events: string[] = [];
	override async onload(): Promise<void> {
		this.events.push(`data ${JSON.stringify(await this.loadData())}`);
		this.addCommand({ id: "hello", name: "Hello", callback: () => this.events.push("command") });
		this.addRibbonIcon("message-square", "Open chat", () => this.events.push("ribbon"));
		this.addSettingTab(new Tab(this.app, this));
		this.register(() => this.events.push("registered cleanup"));
	}
	override onunload(): void {
		this.events.push("onunload");
	}
	useApp(): App {
		return this.app;
	}
}

describe("Plugin", () => {
	it("loads data.json, registers commands, ribbon icons and tab, cleans up on unload", async () => {
		const app = await createTestApp();
		await writePluginData(app, { a: 1 });
		const { plugin } = await loadPlugin(TestPlugin, { app });
		expect(plugin.events[0]).toBe('data {"a":1}');
		expect(runCommand(app, "discover-chat:hello")).toBe(true);
		ribbonIcon(app, "Open chat").click();
		await plugin.saveData({ b: 2 });
		expect(JSON.parse((await readPluginDataText(app)) ?? "null")).toEqual({ b: 2 });
		unloadPlugin(plugin);
		// Obsidian's order: children, then registered callbacks (last first), then onunload.
		expect(plugin.events.slice(1)).toEqual(["command", "ribbon", "registered cleanup", "onunload"]);
		expect(runCommand(app, "discover-chat:hello")).toBe(false);
		expect(() => ribbonIcon(app, "Open chat")).toThrow();
		expect(app.setting.tabs).toHaveLength(0);
	});

	it("loadData is null without data.json", async () => {
		const { plugin } = await loadPlugin(TestPlugin);
		expect(plugin.events[0]).toBe("data null");
	});
});

describe("Setting and components", () => {
	it("builds Obsidian's DOM and reports changes the way a person makes them", async () => {
		const { app } = await loadPlugin(TestPlugin);
		const tab = openSettingTab(app) as unknown as Tab;
		const el = tab.containerEl;
		expect(el.find(".setting-item-heading .setting-item-name").getText()).toBe("Section");
		expect(el.findAll(".setting-item-description")[1]?.getText()).toBe("Desc");
		typeInto(el.find("input[type=text]") as HTMLInputElement, "b");
		(el.find(".checkbox-container")).click();
		selectOption(el.find("select.dropdown") as HTMLSelectElement, "y");
		(el.find("button") as HTMLButtonElement).click();
		createSecretThroughUi(app, el.find("select.setting-secret") as HTMLSelectElement, "openai-key", "sk-123");
		expect(tab.changes).toEqual(["text b", "toggle false", "dropdown y", "button", "secret openai-key"]);
		expect(app.secretStorage.getSecret("openai-key")).toBe("sk-123");
		expect(() => app.secretStorage.setSecret("Bad Id", "x")).toThrow(/Invalid secret ID/);
	});
});
