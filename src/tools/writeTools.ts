// The two write tools, create_note and edit_note. Each has a preview (before, after, unified diff)
// computed before anything is written, for the permission card; the write itself goes through
// VaultAccess (vault.create, or vault.process so an edit applies to the note's text at that very
// moment); every write is filed in the ChangeJournal so it can be reverted. An edit works on the
// note's exact text (noteText.ts): a note that is not UTF-8 is refused, and a note's BOM and line
// ends outside the edit stay as they were.
import { optionalString, requiredString } from "./args";
import type { ChangeJournal } from "./changes";
import { unifiedDiff } from "./diff";
import { appendText, insertUnderHeading, replaceUnique } from "./editOps";
import { exactNoteText, noteView, shownChange, spliceNote, type Splice } from "./noteText";
import { creatablePath, notePath, safePath, ToolError } from "./paths";
import type { ToolDeps } from "./readTools";
import type { Tool, ToolPreview, ToolRunContext } from "./types";

function checkedNote(deps: ToolDeps, raw: unknown): string {
	return notePath(safePath(raw, deps.vault.configDir, deps.scope, "path", "write"));
}

function stopIfAborted(ctx: ToolRunContext): void {
	if (ctx.signal.aborted) throw new ToolError("Stopped before the note was written.");
}

const lineCount = (text: string): number => (text === "" ? 0 : text.replace(/\n$/, "").split("\n").length);

export function createNoteTool(deps: ToolDeps, journal: ChangeJournal): Tool {
	const prepare = (args: Record<string, unknown>): { path: string; content: string } => {
		const path = creatablePath(checkedNote(deps, args.path));
		const content = requiredString(args, "content");
		if (deps.vault.exists(path)) throw new ToolError(`${path} already exists; use edit_note to change it, or choose another path.`);
		return { path, content };
	};
	return {
		name: "create_note",
		access: "write",
		description: "Create a new note with the given content. Fails if a note already exists at the path. The person sees a preview and may decline.",
		parameters: {
			type: "object",
			properties: {
				path: { type: "string", description: 'The new note\'s vault path, such as "Projects/Ideas.md".' },
				content: { type: "string", description: "The note's Markdown text." },
			},
			required: ["path", "content"],
		},
		targets: (args) => [checkedNote(deps, args.path)],
		// Async so a refusal is a rejection, as from run.
		preview: async (args): Promise<ToolPreview> => {
			const { path, content } = prepare(args);
			return { path, before: "", after: content, diff: unifiedDiff("", content, path) };
		},
		async run(args, ctx) {
			const { path, content } = prepare(args);
			stopIfAborted(ctx);
			try {
				await deps.vault.create(path, content);
			} catch (err) {
				throw new ToolError(`Could not create ${path}: ${err instanceof Error ? err.message : String(err)}`);
			}
			journal.record({ id: ctx.callId, tool: "create_note", path, before: null, after: content });
			return `Created ${path} (${lineCount(content)} lines).`;
		},
	};
}

type EditMode = "replace" | "append" | "insert_under_heading";
const MODES: readonly EditMode[] = ["replace", "append", "insert_under_heading"];

/** The edit as a function of the note's view, checked up front so errors name the argument. */
function editOf(args: Record<string, unknown>, path: string): (view: string) => Splice {
	const mode = args.mode ?? (args.old_text !== undefined ? "replace" : undefined);
	if (typeof mode !== "string" || !(MODES as readonly string[]).includes(mode)) throw new ToolError(`"mode" must be one of: ${MODES.join(", ")}.`);
	if (mode === "replace") {
		const oldText = requiredString(args, "old_text");
		const newText = optionalString(args, "new_text") ?? optionalString(args, "text");
		if (newText === undefined) throw new ToolError('"new_text" is required with mode "replace" ("" deletes the passage).');
		return (text) => replaceUnique(text, oldText, newText, path);
	}
	const addition = requiredString(args, "text");
	if (mode === "append") return (text) => appendText(text, addition);
	const heading = requiredString(args, "heading");
	return (text) => insertUnderHeading(text, heading, addition, path);
}

export function editNoteTool(deps: ToolDeps, journal: ChangeJournal): Tool {
	const prepare = (args: Record<string, unknown>): { path: string; edit: (view: string) => Splice } => {
		const path = checkedNote(deps, args.path);
		const edit = editOf(args, path);
		if (!deps.vault.exists(path)) throw new ToolError(`There is no note "${path}"; use create_note for a new note.`);
		return { path, edit };
	};
	const unchanged = (path: string): ToolError => new ToolError(`The edit would leave ${path} unchanged.`);
	const changedMeanwhile = (path: string): ToolError => new ToolError(`${path} changed while it was being edited, so it was left as it is; read it again (read_note) and retry the edit.`);
	return {
		name: "edit_note",
		access: "write",
		description:
			'Edit a note: "replace" an exact passage that occurs once (old_text → new_text), "append" text at the end, or "insert_under_heading" (text at the end of that section). A passage not found, or found more than once, is an error showing the nearest text. The person sees a preview and may decline.',
		parameters: {
			type: "object",
			properties: {
				path: { type: "string", description: "The note's vault path." },
				mode: { type: "string", enum: [...MODES] },
				old_text: { type: "string", description: 'mode "replace": the exact passage, copied from the note.' },
				new_text: { type: "string", description: 'mode "replace": what replaces it.' },
				text: { type: "string", description: 'modes "append" and "insert_under_heading": the text to add.' },
				heading: { type: "string", description: 'mode "insert_under_heading": the heading, such as "Next steps".' },
			},
			required: ["path", "mode"],
		},
		targets: (args) => [checkedNote(deps, args.path)],
		// The card shows the change without the BOM or a CRLF note's CRs (shownChange).
		preview: async (args): Promise<ToolPreview> => {
			const { path, edit } = prepare(args);
			const exact = await exactNoteText(deps.vault, path);
			const after = spliceNote(exact, edit, path);
			if (after === exact) throw unchanged(path);
			const [shownBefore, shownAfter] = shownChange(exact, after);
			return { path, before: shownBefore, after: shownAfter, diff: unifiedDiff(shownBefore, shownAfter, path) };
		},
		async run(args, ctx) {
			const { path, edit } = prepare(args);
			stopIfAborted(ctx);
			// From the bytes: refused when they are not UTF-8, before anything is written.
			const exact = await exactNoteText(deps.vault, path);
			stopIfAborted(ctx);
			const after = await deps.vault.process(path, (text) => {
				// The note the bytes were read from (a vault may hand its text over without the BOM or the CRs).
				if (noteView(text) !== noteView(exact)) throw changedMeanwhile(path);
				const next = spliceNote(exact, edit, path);
				if (next === exact) throw unchanged(path);
				return next;
			});
			const before = exact;
			journal.record({ id: ctx.callId, tool: "edit_note", path, before, after });
			const diff = unifiedDiff(...shownChange(before, after), path);
			const added = diff.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++")).length;
			const removed = diff.split("\n").filter((l) => l.startsWith("-") && !l.startsWith("---")).length;
			return `Edited ${path}: ${added} line${added === 1 ? "" : "s"} added, ${removed} removed.`;
		},
	};
}
