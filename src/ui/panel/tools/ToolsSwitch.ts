// The chat's tools switch, in the header: on (the default), the model may use the vault tools; off,
// this chat's messages go without them. Remembered per chat while the panel is open; a chat not yet
// saved keeps its choice when its first message saves it.
import { setIcon } from "obsidian";
import { t } from "../../../i18n";

export class ToolsSwitch {
	readonly el: HTMLButtonElement;
	/** Chats with tools off. */
	private readonly off = new Set<string>();
	private chatId: string | undefined;
	/** The unsaved chat on screen has tools off. */
	private newChatOff = false;

	constructor(parentEl: HTMLElement, before?: Element | null) {
		this.el = createEl("button", { cls: ["clickable-icon", "discover-chat-icon-button", "discover-tools-switch"], attr: { type: "button" } });
		parentEl.insertBefore(this.el, before ?? null);
		setIcon(this.el, "wrench");
		this.el.addEventListener("click", () => this.set(!this.on));
		this.render();
	}

	/** Tools are on for the chat on screen. */
	get on(): boolean {
		return this.chatId === undefined ? !this.newChatOff : !this.off.has(this.chatId);
	}

	set(on: boolean): void {
		if (this.chatId === undefined) this.newChatOff = !on;
		else if (on) this.off.delete(this.chatId);
		else this.off.add(this.chatId);
		this.render();
	}

	/** Another chat is on screen (undefined: a new one, tools on). */
	show(chatId: string | undefined): void {
		if (chatId === this.chatId) return;
		this.chatId = chatId;
		this.newChatOff = false;
		this.render();
	}

	/** The new chat on screen was saved under `chatId`: it keeps its switch. */
	saved(chatId: string | undefined): void {
		if (chatId === undefined || this.chatId !== undefined) return;
		if (this.newChatOff) this.off.add(chatId);
		this.newChatOff = false;
		this.chatId = chatId;
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
