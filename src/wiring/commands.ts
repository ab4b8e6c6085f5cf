// The plugin's commands and its item in the editor's context menu. None has a default hotkey: the
// person chooses their own (Obsidian's guidelines; a test keeps it so). Names are in sentence case
// without "Discover", which Obsidian adds in the command palette.
import type { Editor, MarkdownFileInfo, Plugin } from "obsidian";
import { DiscoverView } from "../ui/panel/DiscoverView";
import { openDiscoverPanel } from "./openPanel";
import { SLASH_COMMANDS } from "../ui/panel/slashCommands";
import { VIEW_TYPE_DISCOVER } from "../ui/viewType";
import { t } from "../i18n";

export function registerDiscoverCommands(plugin: Plugin): void {
	const { workspace } = plugin.app;
	plugin.addCommand({ id: "new-chat", name: t("command.newChat"), callback: () => void withPanel(plugin, (view) => view.startNewChat()) });
	plugin.addCommand({ id: "open-chat-history", name: t("command.history"), callback: () => void withPanel(plugin, (view) => view.showHistory()) });
	plugin.addCommand({
		id: "ask-about-selection",
		name: t("command.askSelection"),
		editorCheckCallback: (checking, editor, ctx) => {
			if (!hasSelection(editor)) return false;
			if (!checking) void askAboutSelection(plugin, editor, ctx);
			return true;
		},
	});
	plugin.addCommand({
		id: "insert-last-answer",
		// "cursor" is in the lint rule's brand list (the Cursor editor), so the name avoids the word.
		name: t("command.insertAnswer"),
		editorCheckCallback: (checking, editor) => {
			const answer = openView(plugin)?.lastAnswer();
			if (answer === undefined) return false;
			if (!checking) editor.replaceSelection(answer);
			return true;
		},
	});
	const summarize = SLASH_COMMANDS.find((c) => c.name === "summarize");
	if (summarize) {
		plugin.addCommand({
			id: "summarize-note",
			name: t("command.summarize"),
			checkCallback: (checking) => {
				if (workspace.getActiveFile()?.extension !== "md") return false;
				// The same request as typing /summarize: the whole note, without the conversation.
				if (!checking) void withPanel(plugin, (view) => view.runSlashCommand(summarize));
				return true;
			},
		});
	}
	plugin.addCommand({
		id: "focus-chat-input",
		name: t("command.focus"),
		callback: () =>
			void withPanel(plugin, (view) => {
				workspace.setActiveLeaf(view.leaf, { focus: true });
				view.focusInput();
			}),
	});
	plugin.addCommand({
		id: "stop-answer",
		name: t("command.stop"),
		checkCallback: (checking) => {
			const view = openView(plugin);
			if (!view?.isAnswering) return false;
			if (!checking) view.stopAnswer();
			return true;
		},
	});

	plugin.registerEvent(
		workspace.on("editor-menu", (menu, editor, info) => {
			if (!hasSelection(editor)) return;
			menu.addItem((item) =>
				item
					.setTitle(t("command.askSelectionMenu"))
					.setIcon("messages-square")
					.setSection("selection")
					.onClick(() => void askAboutSelection(plugin, editor, info)),
			);
		}),
	);
}

function hasSelection(editor: Editor): boolean {
	return editor.getSelection().trim() !== "";
}

async function askAboutSelection(plugin: Plugin, editor: Editor, info: MarkdownFileInfo): Promise<void> {
	// Taken now: the person may click elsewhere in the note before they send.
	const text = editor.getSelection();
	const noteName = info.file?.basename;
	await withPanel(plugin, (view) => view.askAbout({ text, noteName }));
}

/** The open panel, if it is loaded (a deferred one has no chat to act on yet). */
function openView(plugin: Plugin): DiscoverView | undefined {
	const view = plugin.app.workspace.getLeavesOfType(VIEW_TYPE_DISCOVER)[0]?.view;
	return view instanceof DiscoverView ? view : undefined;
}

/** Opens (or reveals) the panel, waits until its engine is ready, then acts on it. */
async function withPanel(plugin: Plugin, action: (view: DiscoverView) => unknown): Promise<void> {
	const leaf = await openDiscoverPanel(plugin);
	if (!leaf) return;
	await leaf.loadIfDeferred();
	const view = leaf.view;
	if (!(view instanceof DiscoverView)) return;
	await view.whenReady();
	await action(view);
}
