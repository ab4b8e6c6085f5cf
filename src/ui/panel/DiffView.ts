// A write's unified diff (src/tools/diff.ts) as the permission prompt shows it: hunk headers, old
// and new line numbers, and each line classed as added, removed or unchanged, in a box that scrolls
// past a capped height (styles.css) while long lines wrap. The note's text is untrusted (the model
// wrote part of it): it only ever becomes text nodes, with hiding characters made visible.
import { visibleText } from "./permissionText";

export type DiffLineKind = "added" | "removed" | "context" | "hunk";

export interface DiffLine {
	kind: DiffLineKind;
	/** The line's number in the note before the change (removed and unchanged lines). */
	oldNo?: number;
	/** Its number after the change (added and unchanged lines). */
	newNo?: number;
	/** The line without its +/-/space mark; a hunk's header as written. */
	text: string;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** The diff's lines with their numbers; the "---"/"+++" file header is left out (the prompt names the note). */
export function parseUnifiedDiff(diff: string): DiffLine[] {
	const out: DiffLine[] = [];
	let oldNo = 0;
	let newNo = 0;
	let inHunk = false;
	const lines = diff.split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	for (const line of lines) {
		const hunk = HUNK.exec(line);
		if (hunk) {
			inHunk = true;
			oldNo = Number(hunk[1]);
			newNo = Number(hunk[2]);
			// A side with no lines gives the line before it (0 for an empty note); its next line is 1 more.
			if (/^@@ -\d+,0 /.test(line)) oldNo++;
			if (/ \+\d+,0 @@/.test(line)) newNo++;
			out.push({ kind: "hunk", text: line });
			continue;
		}
		// Before the first hunk only the file header can come; inside, "---" is a removed "--" line.
		if (!inHunk) continue;
		const mark = line[0];
		const text = line.slice(1);
		if (mark === "+") out.push({ kind: "added", newNo: newNo++, text });
		else if (mark === "-") out.push({ kind: "removed", oldNo: oldNo++, text });
		else if (mark === "\\") out.push({ kind: "hunk", text: line });
		else out.push({ kind: "context", oldNo: oldNo++, newNo: newNo++, text });
	}
	return out;
}

const SIGN: Record<Exclude<DiffLineKind, "hunk">, string> = { added: "+", removed: "-", context: " " };

/**
 * Renders `diff` into `parent`: a focusable box (so the keyboard can scroll it) named `label`.
 * `emptyText` is shown when the diff has no lines.
 */
export function renderDiff(parent: HTMLElement, diff: string, label: string, emptyText: string): HTMLElement {
	const box = parent.createDiv({ cls: "discover-permission-diff", attr: { tabindex: "0", role: "group", "aria-label": label } });
	const lines = parseUnifiedDiff(diff);
	if (lines.length === 0) {
		box.addClass("is-empty");
		box.createDiv({ cls: "discover-permission-diff-empty", text: emptyText });
		return box;
	}
	for (const line of lines) {
		if (line.kind === "hunk") {
			box.createDiv({ cls: "discover-permission-diff-hunk", text: line.text });
			continue;
		}
		const row = box.createDiv({ cls: ["discover-permission-diff-line", `is-${line.kind}`] });
		row.createSpan({ cls: "discover-permission-diff-num", text: line.oldNo === undefined ? "" : String(line.oldNo), attr: { "aria-hidden": "true" } });
		row.createSpan({ cls: "discover-permission-diff-num", text: line.newNo === undefined ? "" : String(line.newNo), attr: { "aria-hidden": "true" } });
		row.createSpan({ cls: "discover-permission-diff-sign", text: SIGN[line.kind] });
		// Tabs are the note's own; every other hiding character is shown as a code.
		row.createSpan({ cls: "discover-permission-diff-text", text: line.text.split("\t").map(visibleText).join("\t") });
	}
	return box;
}
