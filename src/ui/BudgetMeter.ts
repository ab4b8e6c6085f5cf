import { formatTokens, meterLevel } from "./format";

/** "3.1k / 7.7k": the next prompt's estimated size against the budget, amber from 60%, red from 80%. */
export class BudgetMeter {
	readonly el: HTMLElement;

	constructor(parentEl: HTMLElement) {
		this.el = parentEl.createDiv({ cls: "discover-chat-meter", attr: { "aria-live": "off" } });
	}

	update(estimatedTokens: number, budget: number): void {
		const level = meterLevel(estimatedTokens, budget);
		this.el.setText(`${formatTokens(estimatedTokens)} / ${formatTokens(budget)}`);
		this.el.toggleClass("discover-chat-meter-warn", level === "warn");
		this.el.toggleClass("discover-chat-meter-danger", level === "danger");
		this.el.setAttr("aria-label", `Prompt about ${estimatedTokens} of ${budget} tokens`);
	}
}
