// Edit with Discover in the app: the editor extension (the prompt and the review inside the note),
// the command and the editor menu's item. The engine is loaded when an edit is first sent.
import { editorInfoField, Notice, type Editor, type Plugin } from "obsidian";
import type { EditorView } from "@codemirror/view";
import type { ContextSource } from "../core/types";
import { isReadFenced } from "../core/pathFences";
import { t } from "../i18n";
import { fencesOf } from "../settings/fences";
import { inlineEditExtension, inlineEditViews, openInlineEdit, type EditRequest } from "../ui/editor/inlineEdit";
import type { ChatRuntimeFactory, DiscoverHost } from "../ui/host";
import { pluginRuntimeFactory } from "./factories";
import type { EditExchange, EditNote } from "./editorEdit";

/** Instructions kept for the Up arrow (this session of the app). */
const RECENT_LIMIT = 20;
/** Linked notes read as sources, at most (each is fitted by relevance, most get excerpts). */
const LINKS_LIMIT = 20;

export function registerEditWithDiscover(plugin: Plugin & DiscoverHost, factory: ChatRuntimeFactory = pluginRuntimeFactory): void {
	const recent: string[] = [];
	const exchanges = new WeakMap<EditorView, EditExchange>();
	plugin.registerEditorExtension(
		inlineEditExtension({
			async propose(request) {
				const note = await editNote(plugin, request);
				const runtime = await factory(plugin, () => undefined);
				// However the edit ends (a review, no change, too large, a failure, Stop), its engine is
				// closed: what it learned (the token calibration) is kept, as when a panel closes. The
				// proposal does not wait for that write.
				try {
					const { proposeEdit } = await import("./editorEdit");
					const { outcome, exchange } = await proposeEdit(plugin, runtime, { instruction: request.instruction, note, signal: request.signal, onText: request.onText });
					if (exchange) exchanges.set(request.view, exchange);
					return outcome;
				} finally {
					void runtime.close?.().catch(() => undefined);
				}
			},
			recent: () => recent,
			remember(instruction) {
				const at = recent.indexOf(instruction);
				if (at >= 0) recent.splice(at, 1);
				recent.unshift(instruction);
				recent.length = Math.min(recent.length, RECENT_LIMIT);
			},
			finished(record) {
				const exchange = exchanges.get(record.view);
				if (exchange === undefined) return;
				void import("./editorEdit").then((m) => m.saveReview(exchange, record)).catch(() => undefined);
			},
		}),
	);
	const open = (editor: Editor): void => {
		const view = inlineEditViews().find((v) => v.state.field(editorInfoField, false)?.editor === editor);
		if (view === undefined || !openInlineEdit(view)) new Notice(t("editor.noNote"));
	};
	// No default hotkey: the person picks one (a test keeps every command so).
	plugin.addCommand({ id: "edit-inline", name: t("command.editInline"), editorCallback: (editor) => open(editor) });
	plugin.registerEvent(
		plugin.app.workspace.on("editor-menu", (menu, editor) => {
			menu.addItem((item) =>
				item
					.setTitle(t("command.editMenu"))
					.setIcon("pencil-line")
					.setSection("selection")
					.onClick(() => open(editor)),
			);
		}),
	);
}

/** The note of the edit: its path, its text when the prompt opened, and the notes it links to (outside the fences). */
async function editNote(plugin: Plugin & DiscoverHost, request: EditRequest): Promise<EditNote> {
	const file = request.view.state.field(editorInfoField, false)?.file;
	if (!file) throw new Error(t("editor.noNote"));
	const host: DiscoverHost = plugin;
	const { app } = host;
	const fences = fencesOf(host.settings, app.vault.configDir);
	const links: ContextSource[] = [];
	for (const path of Object.keys(app.metadataCache.resolvedLinks[file.path] ?? {})) {
		if (links.length >= LINKS_LIMIT) break;
		const target = app.vault.getFileByPath(path);
		if (!target || target.extension !== "md" || target.path === file.path || isReadFenced(target.path, fences)) continue;
		links.push({ id: target.path, name: target.path, text: await app.vault.cachedRead(target), kind: "note" });
	}
	return { path: file.path, text: request.note, from: request.from, to: request.to, links };
}
