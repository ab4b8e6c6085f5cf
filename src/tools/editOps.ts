// edit_note's three edits as pure functions of the note's view (noteText.ts: no BOM, LF line
// ends), each giving the splice it makes, so the preview and the atomic write (inside
// vault.process, on the note's text at that moment) compute exactly the same change, and the
// write touches nothing outside it.
import { sections, headingKey } from "./headings";
import { nearestLines } from "./nearest";
import type { Splice } from "./noteText";
import { ToolError } from "./paths";

/** The model's text with LF line ends: in the note they take the note's own. */
const lf = (text: string): string => text.replace(/\r\n/g, "\n");

function lineOf(text: string, index: number): number {
	let n = 1;
	for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) n++;
	return n;
}

function nearestHint(text: string, wanted: string): string {
	const near = nearestLines(text, wanted);
	if (near.length === 0) return "Nothing in the note resembles it; read the note (read_note) and copy the passage exactly.";
	return `The nearest text in the note:\n${near.map((n) => `line ${n.line}: ${n.text}`).join("\n")}\nCopy the passage exactly as it is in the note, then call edit_note again.`;
}

/** Replaces the one exact occurrence of `oldText`; none or several is an error showing the nearest text or the places. */
export function replaceUnique(text: string, rawOldText: string, newText: string, path: string): Splice {
	// The view's line ends are LF: a passage copied with CRLF matches too.
	const oldText = lf(rawOldText);
	if (oldText === "") throw new ToolError(`"old_text" is empty; give the exact passage of ${path} to replace.`);
	const first = text.indexOf(oldText);
	if (first < 0) throw new ToolError(`The passage to replace was not found in ${path}. ${nearestHint(text, oldText)}`);
	const places = [first];
	for (let i = text.indexOf(oldText, first + 1); i >= 0 && places.length < 10; i = text.indexOf(oldText, i + 1)) places.push(i);
	if (places.length > 1) {
		throw new ToolError(
			`The passage to replace occurs ${places.length >= 10 ? "10 or more" : places.length} times in ${path} (at lines ${places.map((p) => lineOf(text, p)).join(", ")}); include more of the surrounding text so it matches once.`,
		);
	}
	return { from: first, to: first + oldText.length, insert: lf(newText) };
}

/** Adds `addition` at the end, on its own line(s). */
export function appendText(text: string, rawAddition: string): Splice {
	const addition = lf(rawAddition);
	const end = { from: text.length, to: text.length };
	if (text === "") return { ...end, insert: addition };
	const sep = text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
	return { ...end, insert: sep + addition + (addition.endsWith("\n") ? "" : "\n") };
}

/** Adds `addition` at the end of the section under `heading` (before the next heading of its level or higher). */
export function insertUnderHeading(text: string, heading: string, addition: string, path: string): Splice {
	const lines = text.split("\n");
	const all = sections(lines);
	const key = headingKey(heading);
	const matches = all.filter((s) => headingKey(s.title) === key);
	if (matches.length === 0) {
		const known = all.map((s) => `${"#".repeat(s.level)} ${s.title}`);
		const near = nearestLines(known.join("\n"), heading).map((n) => n.text);
		throw new ToolError(
			known.length === 0
				? `${path} has no headings; use mode "append" or "replace".`
				: `No heading "${heading}" in ${path}. ${near.length ? `The nearest: ${near.join("; ")}.` : ""} Its headings: ${known.slice(0, 30).join("; ")}${known.length > 30 ? "; …" : ""}`,
		);
	}
	if (matches.length > 1) throw new ToolError(`The heading "${heading}" occurs ${matches.length} times in ${path} (lines ${matches.map((m) => m.line + 1).join(", ")}); use mode "replace" with a unique passage instead.`);
	const section = matches[0] as (typeof matches)[number];
	// After the section's last non-blank line, so the blank line before the next heading stays.
	let at = section.endLine;
	while (at > section.line + 1 && (lines[at - 1] ?? "").trim() === "") at--;
	const added = lf(addition).replace(/\n+$/, "");
	// Before line `at` (its start: every line before it and its line end); after the last line, on a line of its own.
	if (at >= lines.length) return { from: text.length, to: text.length, insert: `\n${added}` };
	let offset = 0;
	for (let i = 0; i < at; i++) offset += (lines[i] ?? "").length + 1;
	return { from: offset, to: offset, insert: `${added}\n` };
}
