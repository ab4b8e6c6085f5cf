// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { ItemView, MarkdownView, Modal, Notice, Plugin, type WorkspaceLeaf } from "obsidian";
import { activateLeaf, asObsidianApp, clearNotices, createTestApp, loadPlugin, notices, openNote, pressKey, runtimeApp } from "./harness";

class ChatView extends ItemView {
	log: string[] = [];
	getViewType(): string {
		return "chat";
	}
	getDisplayText(): string {
		return "Chat";
	}
	override async onOpen(): Promise<void> {
		this.log.push(`open, content in DOM: ${String(this.contentEl.isConnected)}`);
		this.contentEl.createDiv({ text: "hello" });
		this.registerDomEvent(this.contentEl, "click", () => this.log.push("click"));
		await Promise.resolve();
	}
	override async onClose(): Promise<void> {
		this.log.push("close");
		await Promise.resolve();
	}
}

class ViewPlugin extends Plugin {
	override onload(): void {
		this.registerView("chat", (leaf) => new ChatView(leaf));
	}
}

describe("Workspace, leaves and views", () => {
	it("opens a registered view in the right sidebar with Obsidian's DOM and closes it on detach", async () => {
		const { app, plugin } = await loadPlugin(ViewPlugin);
		const ws = asObsidianApp(app).workspace;
		const leaf = ws.getRightLeaf(false) as WorkspaceLeaf;
		await leaf.setViewState({ type: "chat", active: true });
		await ws.revealLeaf(leaf);
		const view = leaf.view as ChatView;
		expect(view).toBeInstanceOf(ChatView);
		expect(ws.getLeavesOfType("chat")).toEqual([leaf]);
		expect(view.containerEl.children[0]?.hasClass("view-header")).toBe(true);
		expect(view.containerEl.children[1]).toBe(view.contentEl);
		expect(view.contentEl.hasClass("view-content")).toBe(true);
		expect(view.containerEl.getAttr("data-type")).toBe("chat");
		expect(view.log).toEqual(["open, content in DOM: true"]);
		view.contentEl.click();
		ws.detachLeavesOfType("chat");
		await Promise.resolve();
		await Promise.resolve();
		view.contentEl.click();
		expect(view.log).toEqual(["open, content in DOM: true", "click", "close"]);
		expect(ws.getLeavesOfType("chat")).toEqual([]);
		plugin.unload();
		await expect(ws.getRightLeaf(false)?.setViewState({ type: "chat" })).resolves.toBeUndefined();
		expect(ws.getLeavesOfType("chat")).toEqual([]);
	});

	it("tracks the active file through note changes, even when a sidebar view has focus", async () => {
		const app = await createTestApp({ files: { "A.md": "# A", "Folder/B.md": "B text" } });
		const ws = asObsidianApp(app).workspace;
		const events: string[] = [];
		ws.on("file-open", (f) => events.push(`file-open ${f?.path ?? "none"}`));
		ws.on("active-leaf-change", (l) => events.push(`leaf ${l?.view.getViewType() ?? "none"}`));
		expect(ws.getActiveFile()).toBeNull();
		const a = await openNote(app, "A.md");
		expect(ws.getActiveFile()?.path).toBe("A.md");
		expect(ws.getActiveViewOfType(MarkdownView)).toBe(a);
		await openNote(app, "Folder/B.md", { newLeaf: true });
		expect(ws.getActiveFile()?.basename).toBe("B");
		const side = runtimeApp(asObsidianApp(app)).workspace.getRightLeaf(false);
		if (!side) throw new Error("no side leaf");
		activateLeaf(app, side);
		expect(ws.getActiveFile()?.path).toBe("Folder/B.md");
		expect(ws.getActiveViewOfType(MarkdownView)).toBeNull();
		activateLeaf(app, a.leaf);
		expect(events).toEqual(["leaf markdown", "file-open A.md", "leaf markdown", "file-open Folder/B.md", "leaf empty", "leaf markdown", "file-open A.md"]);
	});

	it("openLinkText opens a note by path or by name, as a click on [[link]] does", async () => {
		const app = await createTestApp({ files: { "Projects/Plan.md": "plan", "Other/Plan.md": "other plan", "Index.md": "i" } });
		const ws = asObsidianApp(app).workspace;
		await ws.openLinkText("Plan", "Projects/Today.md");
		expect(ws.getActiveFile()?.path).toBe("Projects/Plan.md");
		await ws.openLinkText("Index#Heading", "Projects/Today.md");
		expect(ws.getActiveFile()?.path).toBe("Index.md");
		await ws.openLinkText("Other/Plan.md", "");
		expect(ws.getActiveFile()?.path).toBe("Other/Plan.md");
	});

	it("onLayoutReady runs now when ready, later otherwise", async () => {
		const app = await createTestApp({ layoutReady: false });
		const calls: string[] = [];
		app.workspace.onLayoutReady(() => calls.push("queued"));
		expect(calls).toEqual([]);
		app.workspace.setLayoutReady();
		app.workspace.onLayoutReady(() => calls.push("immediate"));
		expect(calls).toEqual(["queued", "immediate"]);
	});

	it("a note's editor exposes its text and selection", async () => {
		const app = await createTestApp({ files: { "N.md": "alpha beta gamma" } });
		const view = await openNote(app, "N.md");
		expect(view.editor.getValue()).toBe("alpha beta gamma");
		expect(view.editor.somethingSelected()).toBe(false);
		view.editor.select(6, 10);
		expect(view.editor.getSelection()).toBe("beta");
	});
});

describe("Modal and Notice", () => {
	it("opens in the document, Esc closes the topmost only, callbacks fire", async () => {
		const app = asObsidianApp(await createTestApp());
		const closed: string[] = [];
		const first = new Modal(app).setTitle("First").setCloseCallback(() => closed.push("first"));
		const second = new Modal(app).setTitle("Second");
		second.onClose = () => closed.push("second");
		first.open();
		second.open();
		expect(document.querySelectorAll(".modal-container")).toHaveLength(2);
		expect(second.titleEl.getText()).toBe("Second");
		pressKey(second.contentEl, "Escape");
		expect(closed).toEqual(["second"]);
		expect(second.containerEl.isConnected).toBe(false);
		expect(first.containerEl.isConnected).toBe(true);
		(first.modalEl.find(".modal-close-button")).click();
		expect(closed).toEqual(["second", "first"]);
		expect(document.querySelectorAll(".modal-container")).toHaveLength(0);
	});

	it("a modal scope handler can take a key before Esc", async () => {
		const app = asObsidianApp(await createTestApp());
		const modal = new Modal(app);
		const keys: string[] = [];
		modal.scope.register(["Mod"], "Enter", () => {
			keys.push("mod-enter");
			return false;
		});
		modal.open();
		const evt = pressKey(modal.contentEl, "Enter", { ctrl: true });
		expect(keys).toEqual(["mod-enter"]);
		expect(evt.defaultPrevented).toBe(true);
		modal.close();
	});

	it("notices show in the document and are recorded", () => {
		clearNotices();
		const n = new Notice("Saved.", 0);
		expect(n.messageEl.isConnected).toBe(true);
		expect(notices()).toEqual(["Saved."]);
		n.setMessage("Saved again.");
		expect(notices()).toEqual(["Saved again."]);
		n.hide();
		expect(n.messageEl.isConnected).toBe(false);
	});
});
