// @vitest-environment happy-dom
// A fresh install has no model chosen: the first message must ask for one, not fail.
import { afterEach, describe, expect, it } from "vitest";
import { flush, loadPlugin, pressKey, ribbonIcon, typeInto, unloadPlugin } from "../obsidian/harness";
import DiscoverPlugin from "../../src/main";
import type { DiscoverView } from "../../src/ui/panel/DiscoverView";
import { VIEW_TYPE_DISCOVER } from "../../src/ui/viewType";
import { mountView } from "./mountView";

afterEach(() => document.body.empty());

async function until(cond: () => boolean, what: string): Promise<void> {
	for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => window.setTimeout(r, 2));
	if (!cond()) throw new Error(`Timed out waiting for ${what}`);
}

function send(root: HTMLElement, text: string): HTMLTextAreaElement {
	const input = root.querySelector<HTMLTextAreaElement>(".discover-chat-input")!;
	typeInto(input, text);
	pressKey(input, "Enter");
	return input;
}

describe("the first message with no model chosen", () => {
	it("asks for a model with a button that opens Discover's settings, keeps the text and sends nothing", async () => {
		const { plugin, app } = await loadPlugin(DiscoverPlugin);
		expect(plugin.settings.model).toBe("");
		ribbonIcon(app, "Open chat").click();
		// The panel draws its parts, then builds its engine (whose modules load lazily: slow the first time in a run).
		const panel = (): DiscoverView | undefined => app.workspace.getLeavesOfType(VIEW_TYPE_DISCOVER)[0]?.view as unknown as DiscoverView | undefined;
		await until(() => panel()?.contentEl.querySelector(".discover-chat-input") != null, "the panel");
		const view = panel()!;
		await view.whenReady();
		expect(view.chatRuntime).toBeDefined();
		const root = view.contentEl;

		const input = send(root, "What is in this note?");
		await flush();
		const offer = root.querySelector<HTMLElement>(".discover-chat-offer");
		expect(offer?.textContent).toMatch(/Choose a model/);
		expect(root.querySelector(".discover-chat-error")).toBeNull();
		expect(root.textContent).not.toMatch(/rejected|Retry/);
		expect(input.value).toBe("What is in this note?");
		expect(view.chatRuntime!.chat.messages).toHaveLength(0);
		expect(root.querySelectorAll(".discover-chat-message")).toHaveLength(0);

		const button = offer!.querySelector<HTMLButtonElement>("button")!;
		expect(button.textContent).toBe("Open settings");
		button.click();
		await flush();
		expect(app.setting.isOpen).toBe(true);
		expect(app.setting.activeTab?.ownerPlugin).toBe(plugin);
		expect(document.body.contains(app.setting.activeTab!.containerEl)).toBe(true);
		expect(offer!.textContent).toMatch(/Pick a model in the settings, then send your message again/);
		unloadPlugin(plugin);
	});

	it("shows the prompt once however often Send is pressed, and sends as usual once a model is set", async () => {
		const m = await mountView({ settings: { model: "  " } });
		send(m.root, "Hello");
		await flush();
		send(m.root, "Hello");
		await flush();
		expect(m.root.querySelectorAll(".discover-chat-offer")).toHaveLength(1);
		expect(m.chat.sent).toHaveLength(0);
		expect(m.input().value).toBe("Hello");

		m.host.settings.model = "llama3.2";
		pressKey(m.input(), "Enter");
		await flush();
		expect(m.chat.sent.map((s) => s.text)).toEqual(["Hello"]);
		expect(m.root.querySelector(".discover-chat-offer")).toBeNull();
		m.leaf.detach();
	});
});

describe("a model chosen in settings while the panel is open", () => {
	it("shows at once in the header and the empty chat, and the prompt to pick one goes away", async () => {
		const { plugin, app } = await loadPlugin(DiscoverPlugin);
		ribbonIcon(app, "Open chat").click();
		await until(() => (app.workspace.getLeavesOfType(VIEW_TYPE_DISCOVER)[0]?.view as unknown as DiscoverView | undefined)?.chatRuntime !== undefined, "the panel");
		const root = (app.workspace.getLeavesOfType(VIEW_TYPE_DISCOVER)[0]!.view as unknown as DiscoverView).contentEl;
		send(root, "What is in this note?");
		await flush();
		expect(root.querySelector(".discover-chat-offer")).not.toBeNull();
		expect(root.querySelector(".discover-chat-empty-model")?.textContent).toMatch(/No model chosen/);
		// The header's button reads "Choose a model" alone: no agent name squeezed beside it ("Defau… Choose a mo…").
		const shown = () => [...root.querySelectorAll(".discover-chat-model > span:not(.discover-chat-hidden)")].map((s) => s.textContent).join("|");
		expect(root.querySelector(".discover-chat-agent-name")?.textContent).toBe("Default");
		expect(shown()).toBe("Choose a model|");

		plugin.settings.model = "llama3.2";
		await plugin.saveSettings();
		expect(root.querySelector(".discover-chat-offer")).toBeNull();
		expect(root.querySelector(".discover-chat-empty-model")?.textContent).toMatch(/^llama3\.2 · /);
		expect(root.querySelector(".discover-chat-model-name")?.textContent).toBe("llama3.2");
		expect(shown()).toBe("Default|llama3.2|");
		unloadPlugin(plugin);
	});
});

describe("openPluginSettings", () => {
	it("reports false where Obsidian has no settings window to open, so the panel says where to go", async () => {
		const { openPluginSettings } = await import("../../src/ui/panel/openSettings");
		expect(openPluginSettings({} as never, "discover-chat")).toBe(false);
	});
});
