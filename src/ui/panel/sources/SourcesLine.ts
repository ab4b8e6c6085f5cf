// "Sources" under an answer: what the model was given besides the conversation. Folded it lists
// each source (whole or excerpts, tokens sent of the source's tokens); unfolded it shows the
// passages that were sent, read again from the note through the saved character ranges. A note
// changed since the answer (or gone) says so instead of showing text that was not sent. Note text
// is untrusted: it is shown as plain text, never as HTML.
import { setIcon, TFile } from "obsidian";
import type { App } from "obsidian";
import type { SourceFit } from "../../../core/types";
import { shownHeadingPath } from "../../../context/headingPath";
import { fitLabel, SOURCE_TEXT } from "./sourceText";

/** What the expansion shows at most of one source (a whole note can be long). */
export const MAX_SHOWN_CHARS = 200_000;

export class SourcesLine {
	readonly el: HTMLElement;
	private readonly toggleEl: HTMLButtonElement;
	private readonly listEl: HTMLElement;
	private expanded = false;
	private sources: readonly SourceFit[] = [];
	private answeredAt = 0;
	/** The newest list render; an older one still reading notes stops. */
	private renders = 0;

	constructor(
		parentEl: HTMLElement,
		private readonly app: App,
		before: HTMLElement | null,
	) {
		this.el = parentEl.createDiv({ cls: "discover-chat-sources-line" });
		if (before) parentEl.insertBefore(this.el, before);
		this.toggleEl = this.el.createEl("button", { cls: "discover-chat-sources-toggle", attr: { type: "button", "aria-expanded": "false" } });
		this.toggleEl.addEventListener("click", () => void this.setExpanded(!this.expanded));
		this.listEl = this.el.createDiv({ cls: "discover-chat-sources-list" });
	}

	/** `answeredAt`: when the answer was written (a note modified later has changed since). */
	update(sources: readonly SourceFit[], answeredAt: string): Promise<void> {
		this.sources = sources;
		this.answeredAt = Date.parse(answeredAt) || 0;
		return this.refresh();
	}

	setExpanded(expanded: boolean): Promise<void> {
		this.expanded = expanded;
		return this.refresh();
	}

	private refresh(): Promise<void> {
		const sources = this.sources;
		this.el.toggleClass("discover-chat-hidden", sources.length === 0);
		this.el.toggleClass("is-expanded", this.expanded);
		this.toggleEl.setAttr("aria-expanded", String(this.expanded));
		this.toggleEl.empty();
		setIcon(this.toggleEl.createSpan({ cls: "discover-chat-sources-chevron" }), this.expanded ? "chevron-down" : "chevron-right");
		this.toggleEl.createSpan({ cls: "discover-chat-sources-label", text: SOURCE_TEXT.sourcesLine(sources.length) });
		this.toggleEl.createSpan({ cls: "discover-chat-sources-names", text: sources.map((s) => s.name).join(", ") });
		// Notes a vault search found by their start only (over the per-note index limit).
		const partial = sources.filter((s) => s.indexedInPartOverMb !== undefined);
		if (partial.length > 0) {
			const overMb = Math.min(...partial.map((s) => s.indexedInPartOverMb ?? Infinity));
			this.toggleEl.createSpan({ cls: "discover-chat-sources-partial", text: SOURCE_TEXT.indexedInPart(partial.length, overMb) });
		}
		return this.renderList();
	}

	private async renderList(): Promise<void> {
		const seq = ++this.renders;
		this.listEl.empty();
		this.listEl.toggleClass("discover-chat-hidden", !this.expanded);
		if (!this.expanded) return;
		const rows = this.sources.map((fit) => ({ fit, row: this.renderRow(fit) }));
		for (const { fit, row } of rows) {
			if (seq !== this.renders) return;
			await this.renderPassages(fit, row);
		}
	}

	private renderRow(fit: SourceFit): HTMLElement {
		const row = this.listEl.createDiv({ cls: "discover-chat-source-row" });
		const head = row.createDiv({ cls: "discover-chat-source-head" });
		const file = this.app.vault.getAbstractFileByPath(fit.id);
		if (file instanceof TFile) {
			const link = head.createEl("a", { cls: "discover-chat-source-link", text: fit.name, href: "#" });
			link.setAttr("aria-label", SOURCE_TEXT.open(fit.name));
			link.addEventListener("click", (e) => {
				e.preventDefault();
				void this.app.workspace.openLinkText(fit.id, "", false);
			});
		} else head.createSpan({ cls: "discover-chat-source-name", text: fit.name });
		head.createSpan({ cls: "discover-chat-source-fit", text: fitLabel(fit) });
		head.createSpan({ cls: "discover-chat-source-tokens", text: SOURCE_TEXT.tokensOf(fit.sentTokens, fit.totalTokens) });
		return row;
	}

	private async renderPassages(fit: SourceFit, row: HTMLElement): Promise<void> {
		const note = (text: string): void => void row.createDiv({ cls: "discover-chat-source-note", text });
		if (fit.fit === "none") return note(SOURCE_TEXT.nothingSent());
		const file = this.app.vault.getAbstractFileByPath(fit.id);
		if (!(file instanceof TFile)) return note(fit.id === "selection" ? SOURCE_TEXT.selectionNotKept() : SOURCE_TEXT.noteGone(fit.name));
		if (this.answeredAt > 0 && file.stat.mtime > this.answeredAt) return note(SOURCE_TEXT.noteChanged(fit.name));
		let text: string;
		try {
			text = await this.app.vault.cachedRead(file);
		} catch {
			return note(SOURCE_TEXT.noteGone(fit.name));
		}
		const ranges = fit.fit === "whole" ? [{ start: 0, end: text.length, headingPath: "" }] : (fit.passages ?? []);
		if (ranges.some((r) => r.start < 0 || r.end > text.length || r.start > r.end)) return note(SOURCE_TEXT.noteChanged(fit.name));
		const box = row.createDiv({ cls: "discover-chat-source-passages" });
		let shown = 0;
		ranges.forEach((range, i) => {
			if (shown >= MAX_SHOWN_CHARS) return;
			if (i > 0 || range.start > 0) box.createDiv({ cls: "discover-chat-source-gap", text: "[…]" });
			const passage = box.createDiv({ cls: "discover-chat-source-passage" });
			const slice = text.slice(range.start, Math.min(range.end, range.start + MAX_SHOWN_CHARS - shown));
			const headingPath = shownHeadingPath(range.headingPath, slice);
			if (headingPath) passage.createDiv({ cls: "discover-chat-source-heading", text: headingPath });
			shown += slice.length;
			passage.createDiv({ cls: "discover-chat-source-text", text: slice });
		});
		const last = ranges[ranges.length - 1];
		if (shown >= MAX_SHOWN_CHARS || (last !== undefined && last.end < text.length)) box.createDiv({ cls: "discover-chat-source-gap", text: "[…]" });
	}
}
