// The sources attached to the chat, as chips above the input: each names a note, folder, tag or
// the vault, says how much of it fits, opens the note when clicked and has a × to remove it.
import { setIcon, setTooltip } from "obsidian";
import type { SourceRef } from "./sourceRefs";
import { SOURCE_TEXT } from "./sourceText";

export interface ChipItem {
	ref: SourceRef;
	label: string;
	/** "whole", "excerpts, 34%", "not included", "23 notes"… */
	fitText: string;
	/** Less than all of it goes in (styled as a warning). */
	cut: boolean;
	/** Clicking opens this note (notes only). */
	openable: boolean;
}

const ICONS: Record<SourceRef["type"], string> = { note: "file-text", folder: "folder", tag: "tag", vault: "library" };

export class SourceChips {
	readonly el: HTMLElement;

	constructor(
		parentEl: HTMLElement,
		private readonly handlers: { onRemove: (ref: SourceRef) => void; onOpen: (ref: SourceRef) => void },
	) {
		this.el = parentEl.createDiv({ cls: ["discover-chat-sources", "discover-chat-hidden"], attr: { role: "list" } });
	}

	render(items: readonly ChipItem[]): void {
		this.el.empty();
		this.el.toggleClass("discover-chat-hidden", items.length === 0);
		for (const item of items) {
			const chip = this.el.createDiv({ cls: ["discover-chat-source-chip", `discover-chat-source-chip-${item.ref.type}`], attr: { role: "listitem" } });
			chip.toggleClass("is-cut", item.cut);
			const open = chip.createEl(item.openable ? "button" : "span", { cls: "discover-chat-source-chip-open" });
			if (open instanceof HTMLButtonElement) {
				open.type = "button";
				open.setAttr("aria-label", SOURCE_TEXT.open(item.label));
				open.addEventListener("click", () => this.handlers.onOpen(item.ref));
			}
			setIcon(open.createSpan({ cls: "discover-chat-source-chip-icon" }), ICONS[item.ref.type]);
			open.createSpan({ cls: "discover-chat-source-chip-name", text: item.label });
			if (item.fitText) chip.createSpan({ cls: "discover-chat-source-chip-fit", text: item.fitText });
			const remove = chip.createEl("button", {
				cls: ["clickable-icon", "discover-chat-icon-button", "discover-chat-source-chip-remove"],
				attr: { type: "button", "aria-label": SOURCE_TEXT.remove(item.label) },
			});
			setIcon(remove, "x");
			setTooltip(remove, SOURCE_TEXT.remove(item.label));
			remove.addEventListener("click", () => this.handlers.onRemove(item.ref));
		}
	}
}
