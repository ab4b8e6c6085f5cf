import { thoughtForLabel } from "./thoughtForLabel";
import { t } from "../../i18n";

/**
 * A thinking model's thinking, above its answer: open while the model thinks, folded once the
 * answer starts, labelled with how long it thought. Shown as plain text, never rendered as
 * Markdown: it is model output not meant as a document, and rendering would load its images.
 */
export class ThinkingBlock {
	readonly el: HTMLDetailsElement;
	private readonly summaryEl: HTMLElement;
	private readonly bodyEl: HTMLElement;
	private shownText: string | undefined;
	private shownLabel: string | undefined;

	constructor(before: HTMLElement, open: boolean) {
		this.el = createEl("details", { cls: "discover-chat-thinking" });
		before.before(this.el);
		this.el.open = open;
		this.summaryEl = this.el.createEl("summary", { cls: "discover-chat-thinking-summary" });
		this.bodyEl = this.el.createDiv({ cls: "discover-chat-thinking-body" });
	}

	/**
	 * `live`: the model is thinking now. `ms`: how long it thought, once known. The block is never
	 * opened or folded here except by `fold`: a person who opened it keeps it open.
	 */
	update(text: string, live: boolean, ms: number | undefined): void {
		if (text !== this.shownText) {
			this.shownText = text;
			this.bodyEl.setText(text);
		}
		const label = live ? t("status.thinking") : thoughtForLabel(ms);
		if (label !== this.shownLabel) {
			this.shownLabel = label;
			this.summaryEl.setText(label);
		}
		this.el.toggleClass("is-live", live);
	}

	fold(): void {
		this.el.open = false;
	}

	remove(): void {
		this.el.remove();
	}
}
