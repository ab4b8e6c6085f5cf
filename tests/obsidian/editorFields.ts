// The CodeMirror state fields Obsidian puts in every note's editor. A test's EditorView sets
// `editorInfoField.init(() => markdownView)`, as Obsidian's editor holds its MarkdownView there.
import { StateField } from "@codemirror/state";
import type * as O from "obsidian";

export const editorInfoField: StateField<O.MarkdownFileInfo> = StateField.define<O.MarkdownFileInfo>({
	// Obsidian's field is always set in a note's editor; an editor built without it has no note.
	create: () => null as unknown as O.MarkdownFileInfo,
	update: (info) => info,
});
