// The chat's tools switch, in the header: on (the default), the model may use the vault tools; off,
// this chat's messages go without them. It shows the switch saved with the chat on screen (a chat
// without one, and every new chat, has tools on); a flip is handed to `onFlip`, which saves it with
// the chat (a chat not created yet: when its first message creates it, ChatService.setTools).
import { setIcon } from "obsidian";
import { t } from "../../../i18n";

export class ToolsSwitch {
	readonly el: HTMLButtonElement;
	private isOn = true;

	constructor(
		parentEl: HTMLElement,
		before: Element | null | undefined,
		/** The person flipped the switch: save it with the chat and refresh what depends on it. */
		private readonly onFlip: (on: boolean) => void = () => undefined,
	) {
		this.el = createEl("button", { cls: ["clickable-icon", "discover-chat-icon-button", "discover-tools-switch"], attr: { type: "button" } });
		parentEl.insertBefore(this.el, before ?? null);
		setIcon(this.el, "wrench");
		this.el.addEventListener("click", () => this.set(!this.on));
		this.render();
	}

	/** Tools are on for the chat on screen. */
	get on(): boolean {
		return this.isOn;
	}

	/** The person's flip (the button, or a test): shown at once, then handed on. */
	set(on: boolean): void {
		if (on === this.isOn) return;
		this.isOn = on;
		this.render();
		this.onFlip(on);
	}

	/** Another chat is on screen; `saved`: its saved switch (undefined: none saved, or a new chat: tools on). */
	show(saved: boolean | undefined): void {
		this.isOn = saved !== false;
		this.render();
	}

	private render(): void {
		const on = this.on;
		this.el.setAttr("aria-pressed", on ? "true" : "false");
		this.el.setAttr("aria-label", on ? t("tools.switchOn") : t("tools.switchOff"));
		this.el.toggleClass("is-active", on);
		this.el.toggleClass("is-off", !on);
	}
}
