/** One quiet line above the input for progress ("Summarizing earlier messages…"); hidden when empty. */
export class StatusLine {
	readonly el: HTMLElement;

	constructor(parentEl: HTMLElement) {
		this.el = parentEl.createDiv({ cls: ["discover-chat-status", "discover-chat-hidden"], attr: { "aria-live": "polite" } });
	}

	set(text: string): void {
		// Called for every streamed token: an unchanged line is left alone.
		if (text === this.el.textContent && (text === "") === this.el.hasClass("discover-chat-hidden")) return;
		this.el.setText(text);
		this.el.toggleClass("discover-chat-hidden", text === "");
	}
}
