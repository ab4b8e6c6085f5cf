// The `@` / `[[` suggester: a list above the input, like the `/` command menu, that follows the
// mention being typed. Arrows move, Enter or Tab picks, Escape closes; focus stays in the input.
import { setIcon, type App } from "obsidian";
import { suggestSources, type Candidate } from "./sourceCandidates";
import { findMention, type Mention } from "./mentionQuery";
import type { SourceRef } from "./sourceRefs";
import { SOURCE_TEXT } from "./sourceText";
import { isCanvasPath } from "./canvasNotes";
import { isPdfPath } from "./pdfNotes";

export interface SourceSuggestOptions {
	/** `@vault` is offered. */
	vault: () => boolean;
	/** Keys of the refs already attached (refKey). */
	attached: () => ReadonlySet<string>;
	/** Discover's own folders (chats, agents): not offered. */
	ownFolders?: () => readonly string[];
	onChoose: (ref: SourceRef) => void;
}

let suggestCount = 0;

export class SourceSuggest {
	readonly el: HTMLElement;
	private items: Candidate[] = [];
	private index = 0;
	private mention: Mention | undefined;
	private readonly id: string;
	/** Escape closed the list for this mention: it stays closed until the mention changes start. */
	private dismissedAt: number | undefined;

	constructor(
		parentEl: HTMLElement,
		private readonly inputEl: HTMLTextAreaElement,
		private readonly app: App,
		private readonly options: SourceSuggestOptions,
	) {
		this.id = `discover-chat-sources-${++suggestCount}`;
		this.el = parentEl.createDiv({ cls: ["discover-chat-source-menu", "discover-chat-hidden"], attr: { id: this.id, role: "listbox", "aria-label": SOURCE_TEXT.suggestions() } });
		parentEl.prepend(this.el);
	}

	get isOpen(): boolean {
		return this.items.length > 0;
	}

	/** Follows the text and caret: opens, narrows or closes the list. */
	update(): void {
		const caret = this.inputEl.selectionStart ?? this.inputEl.value.length;
		const mention = findMention(this.inputEl.value, caret);
		if (this.dismissedAt !== undefined && mention?.start !== this.dismissedAt) this.dismissedAt = undefined;
		this.mention = mention;
		this.items = mention && this.dismissedAt === undefined ? suggestSources(this.app, mention.query, { vault: this.options.vault(), attached: this.options.attached(), ownFolders: this.options.ownFolders?.() ?? [] }) : [];
		this.index = 0;
		this.render();
	}

	close(): void {
		this.items = [];
		this.render();
	}

	/** Handles the list's keys; true when the key was the list's (the input must not act on it). */
	handleKey(e: KeyboardEvent): boolean {
		if (!this.isOpen || e.isComposing) return false;
		if (e.key === "ArrowDown" || e.key === "ArrowUp") {
			const step = e.key === "ArrowDown" ? 1 : -1;
			this.index = (this.index + step + this.items.length) % this.items.length;
			this.render();
		} else if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") {
			const item = this.items[this.index];
			if (item) this.choose(item);
		} else if (e.key === "Escape") {
			this.dismissedAt = this.mention?.start;
			this.close();
		} else return false;
		e.preventDefault();
		e.stopPropagation();
		return true;
	}

	private choose(item: Candidate): void {
		const mention = this.mention;
		if (mention) {
			// The mention becomes a chip: its text leaves the message.
			const text = this.inputEl.value;
			const rest = text.slice(mention.end).replace(/^\]\]/, "");
			const before = text.slice(0, mention.start);
			this.inputEl.value = before + rest.replace(/^ (?= )/, "");
			this.inputEl.setSelectionRange(before.length, before.length);
		}
		this.close();
		this.options.onChoose(item.ref);
		this.inputEl.dispatchEvent(new Event("input"));
	}

	/** Moves the highlight to row `i` without building the list again. */
	private select(i: number): void {
		if (i === this.index || !this.isOpen) return;
		this.index = i;
		Array.from(this.el.children).forEach((row, j) => {
			row.toggleClass("is-selected", j === i);
			row.setAttr("aria-selected", String(j === i));
		});
		this.inputEl.setAttr("aria-activedescendant", `${this.id}-${i}`);
	}

	private render(): void {
		this.el.empty();
		this.el.toggleClass("discover-chat-hidden", !this.isOpen);
		if (this.isOpen) this.inputEl.setAttr("aria-activedescendant", `${this.id}-${this.index}`);
		else if (this.inputEl.getAttr("aria-activedescendant")?.startsWith(this.id)) this.inputEl.removeAttribute("aria-activedescendant");
		this.items.forEach((item, i) => {
			const option = this.el.createDiv({
				cls: ["discover-chat-source-option", `discover-chat-source-option-${item.ref.type}`],
				attr: { id: `${this.id}-${i}`, role: "option", "aria-selected": String(i === this.index) },
			});
			option.toggleClass("is-selected", i === this.index);
			// What kind of source it is, at a glance: a note, a folder, a tag or the whole vault.
			setIcon(option.createSpan({ cls: "discover-chat-source-option-icon", attr: { "aria-hidden": "true" } }), item.ref.type === "note" && isCanvasPath(item.ref.path) ? "layout-dashboard" : item.ref.type === "note" && isPdfPath(item.ref.path) ? "file-type" : SOURCE_ICONS[item.ref.type]);
			const label = option.createSpan({ cls: "discover-chat-source-option-name" });
			highlight(label, item.label, item.matches);
			if (item.detail) option.createSpan({ cls: "discover-chat-source-option-detail", text: item.detail });
			// mousedown, not click: the input keeps focus.
			option.addEventListener("mousedown", (e) => {
				e.preventDefault();
				this.choose(item);
			});
			// The pointer moves the one highlight: never one row under the pointer and another under the keys.
			option.addEventListener("mousemove", () => this.select(i));
		});
		if (this.isOpen) this.el.querySelector(".is-selected")?.scrollIntoView?.({ block: "nearest" });
	}
}

const SOURCE_ICONS: Record<SourceRef["type"], string> = { note: "file-text", folder: "folder", tag: "tag", vault: "library" };

/** The label with the matched characters in <mark> (text nodes only: names are untrusted). */
function highlight(el: HTMLElement, text: string, matches: number[]): void {
	const hit = new Set(matches);
	let run = "";
	let inHit = false;
	const flush = (): void => {
		if (run === "") return;
		if (inHit) el.createEl("mark", { text: run });
		else el.appendText(run);
		run = "";
	};
	[...text].forEach((ch, i) => {
		const h = hit.has(i);
		if (h !== inHit) {
			flush();
			inHit = h;
		}
		run += ch;
	});
	flush();
}
