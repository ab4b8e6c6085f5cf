import { meterLevel } from "../format";
import { formatTokenCount, t } from "../../i18n";


/**
 * "3.1k / 7.7k tokens": the next prompt's estimated size against the prompt budget (context size minus
 * the answer's reserve, the figure the settings tab names), amber from 60%, red from 80%.
 * The engine starts summarizing a little earlier (`summarizeAt`, about 85%): token counts are
 * estimates that can run low, so it keeps a margin. The tooltip says so.
 */
/** The model's safety margin as the engine's preview reports it. */
export interface MeterMargin {
	/** Share of the prompt budget held back, 0..1. */
	share: number;
	/** Answers it was learned from; 0 before the model reported any token count. */
	answers: number;
}

/** "Safety margin 4%, learned from 37 answers." — or the default's reason before any answer. */
export function marginText(margin: MeterMargin): string {
	const percent = Math.round(margin.share * 100);
	if (margin.answers <= 0) return t("panel.marginDefault", { percent });
	return t("panel.marginLearned", { percent, count: margin.answers });
}

export class BudgetMeter {
	readonly el: HTMLElement;
	private margin: MeterMargin | undefined;

	constructor(parentEl: HTMLElement) {
		this.el = parentEl.createDiv({ cls: "discover-chat-meter", attr: { role: "meter", "aria-valuemin": "0", "aria-live": "off" } });
	}

	/**
	 * `budget`: the prompt budget; `summarizeAt`: the engine's margin-adjusted limit; `margin`: the
	 * model's safety margin (the last one given is kept when a caller has none).
	 */
	update(estimatedTokens: number, budget: number, summarizeAt: number, margin?: MeterMargin): void {
		if (margin !== undefined) this.margin = margin;
		// Settings mid-edit can make the budget meaningless; the engine's limit is then the best guide.
		const total = budget > 0 ? budget : summarizeAt;
		const level = meterLevel(estimatedTokens, total);
		// The unit on screen: "253 / 7.7k" alone reads as anything (characters, words, a page count).
		const text = t("panel.meter", { used: formatTokenCount(estimatedTokens), total: formatTokenCount(total) });
		this.el.setText(text);
		this.el.setAttr("aria-valuemax", String(Math.round(total)));
		this.el.setAttr("aria-valuenow", String(Math.min(Math.round(estimatedTokens), Math.round(total))));
		this.el.setAttr("aria-valuetext", text);
		this.el.toggleClass("discover-chat-meter-warn", level === "warn");
		this.el.toggleClass("discover-chat-meter-danger", level === "danger");
		this.el.setAttr(
			"aria-label",
			t("panel.meterLabel", { used: Math.round(estimatedTokens), total: Math.round(total), summarizeAt: Math.round(summarizeAt) }) + (this.margin !== undefined ? ` ${marginText(this.margin)}` : ""),
		);
	}
}
