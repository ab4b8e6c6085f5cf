import { setIcon } from "obsidian";
import type { SendKey } from "../../settings/settings";
import { matchSlashCommands, type SlashCommand } from "./slashCommands";
import { t } from "../../i18n";
import { ComposerImages, type ComposerImagesHandlers } from "./ComposerImages";

export interface ComposerHandlers {
	onSend: (text: string) => void;
	onStop: () => void;
	onCommand: (command: SlashCommand) => void;
	/** The draft changed (for the budget meter). */
	onInput: (text: string) => void;
	onFocus?: () => void;
	/** The "Send with" setting, read at each key press so a change applies at once. */
	sendKey?: () => SendKey;
	/** Attaching images (button, paste, drop); without it the composer takes text only. */
	images?: ComposerImagesHandlers;
}

const MAX_ROWS = 10;
/** Makes element ids unique when more than one panel is open. */
let composerCount = 0;

/**
 * The input: an auto-growing textarea (Enter sends and Shift+Enter adds a line, or Ctrl/Cmd+Enter
 * sends and Enter adds a line, as the "Send with" setting says), a button that is Send
 * when idle and Stop while an answer streams, and a menu of `/` commands.
 */
export class Composer {
	readonly el: HTMLElement;
	readonly inputEl: HTMLTextAreaElement;
	readonly buttonEl: HTMLButtonElement;
	private readonly menuEl: HTMLElement;
	private menuItems: SlashCommand[] = [];
	private menuIndex = 0;
	private readonly menuId: string;
	private busy = false;
	/** Another list over the input (the sources suggester) takes the keys it handles first. */
	interceptKey: ((e: KeyboardEvent) => boolean) | undefined;
	/** The text or the caret moved (the sources suggester follows the mention under the caret). */
	onCaret: (() => void) | undefined;
	/** The images waiting to be sent with the message, when attaching is on. */
	readonly images: ComposerImages | undefined;

	constructor(parentEl: HTMLElement, private readonly handlers: ComposerHandlers) {
		this.el = parentEl.createDiv({ cls: "discover-chat-composer" });
		this.menuId = `discover-chat-commands-${++composerCount}`;
		this.menuEl = this.el.createDiv({ cls: ["discover-chat-command-menu", "discover-chat-hidden"], attr: { id: this.menuId, role: "listbox", "aria-label": t("composer.commands") } });
		const row = this.el.createDiv({ cls: "discover-chat-input-row" });
		this.inputEl = row.createEl("textarea", {
			cls: "discover-chat-input",
			attr: { rows: "1", placeholder: t("composer.placeholder"), "aria-label": t("composer.message"), "aria-controls": this.menuId, "aria-autocomplete": "list" },
		});
		this.buttonEl = row.createEl("button", { cls: ["discover-chat-send", "mod-cta"], attr: { type: "button" } });
		this.buttonEl.addEventListener("click", () => this.onButton());
		this.images = handlers.images ? new ComposerImages(this.el, row, this.inputEl, handlers.images) : undefined;
		this.inputEl.addEventListener("keydown", (e) => this.onKeyDown(e));
		this.inputEl.addEventListener("input", () => this.onInput());
		this.inputEl.addEventListener("click", () => this.onCaret?.());
		this.inputEl.addEventListener("keyup", (e) => {
			if (e.key === "ArrowLeft" || e.key === "ArrowRight" || e.key === "Home" || e.key === "End") this.onCaret?.();
		});
		if (handlers.onFocus) this.inputEl.addEventListener("focus", handlers.onFocus);
		this.setBusy(false);
	}

	get value(): string {
		return this.inputEl.value;
	}

	/** Replaces the draft (e.g. unsent text coming back, or "To prompt" from history). */
	setValue(text: string, focus = true): void {
		this.inputEl.value = text;
		this.onInput();
		if (focus) {
			this.inputEl.focus();
			this.inputEl.setSelectionRange(text.length, text.length);
		}
	}

	/** While busy the button is Stop and nothing can be sent from the UI. */
	setBusy(busy: boolean): void {
		this.busy = busy;
		this.buttonEl.empty();
		this.buttonEl.toggleClass("discover-chat-stop", busy);
		this.buttonEl.toggleClass("mod-cta", !busy);
		setIcon(this.buttonEl, busy ? "square" : "send");
		this.buttonEl.setAttr("aria-label", busy ? t("composer.stop") : t("composer.send"));
	}

	focus(): void {
		this.inputEl.focus();
	}

	private onButton(): void {
		if (this.busy) this.handlers.onStop();
		else this.submit();
	}

	private submit(): void {
		if (this.busy) return;
		const text = this.inputEl.value;
		if (text.trim() === "") return;
		const command = this.menuItems[this.menuIndex];
		if (command && this.isMenuOpen()) {
			this.choose(command);
			return;
		}
		this.handlers.onSend(text);
	}

	private onKeyDown(e: KeyboardEvent): void {
		// IME composition uses Enter to confirm characters: never send then.
		if (e.isComposing) return;
		if (this.interceptKey?.(e)) return;
		if (this.isMenuOpen()) {
			if (e.key === "ArrowDown" || e.key === "ArrowUp") {
				e.preventDefault();
				const step = e.key === "ArrowDown" ? 1 : -1;
				this.menuIndex = (this.menuIndex + step + this.menuItems.length) % this.menuItems.length;
				this.renderMenu();
				return;
			}
			if (e.key === "Tab") {
				e.preventDefault();
				const command = this.menuItems[this.menuIndex];
				if (command) this.setValue(`/${command.name}`);
				return;
			}
			if (e.key === "Escape") {
				e.preventDefault();
				this.closeMenu();
				return;
			}
		}
		if (e.key !== "Enter") return;
		// With the `/` menu open, Enter picks the highlighted command whichever key sends.
		if (this.isSendKey(e) || (this.isMenuOpen() && !e.shiftKey)) {
			e.preventDefault();
			this.submit();
		}
	}

	private isSendKey(e: KeyboardEvent): boolean {
		if (this.handlers.sendKey?.() === "mod-enter") return e.ctrlKey || e.metaKey;
		return !e.shiftKey;
	}

	private onInput(): void {
		const text = this.inputEl.value;
		// Grows with its content (CSS field-sizing does it where supported; rows is the fallback).
		this.inputEl.rows = Math.min(MAX_ROWS, text.split("\n").length);
		this.menuItems = matchSlashCommands(text);
		this.menuIndex = 0;
		this.renderMenu();
		this.onCaret?.();
		this.handlers.onInput(text);
	}

	private isMenuOpen(): boolean {
		return this.menuItems.length > 0;
	}

	private closeMenu(): void {
		this.menuItems = [];
		this.renderMenu();
	}

	private choose(command: SlashCommand): void {
		this.closeMenu();
		this.handlers.onCommand(command);
	}

	private renderMenu(): void {
		this.menuEl.empty();
		this.menuEl.toggleClass("discover-chat-hidden", this.menuItems.length === 0);
		// Focus stays in the input; screen readers follow the highlighted command through this.
		if (this.menuItems.length > 0) this.inputEl.setAttr("aria-activedescendant", `${this.menuId}-${this.menuIndex}`);
		else this.inputEl.removeAttribute("aria-activedescendant");
		this.menuItems.forEach((command, i) => {
			const item = this.menuEl.createDiv({
				cls: "discover-chat-command",
				attr: { id: `${this.menuId}-${i}`, role: "option", "aria-selected": String(i === this.menuIndex) },
			});
			item.toggleClass("is-selected", i === this.menuIndex);
			item.createSpan({ cls: "discover-chat-command-name", text: `/${command.name}` });
			item.createSpan({ cls: "discover-chat-command-desc", text: command.description });
			// mousedown, not click: the textarea must keep focus.
			item.addEventListener("mousedown", (e) => {
				e.preventDefault();
				this.choose(command);
			});
			// The pointer moves the one highlight: never one row under the pointer and another under the keys.
			item.addEventListener("mousemove", () => this.selectCommand(i));
		});
	}

	private selectCommand(i: number): void {
		if (i === this.menuIndex || this.menuItems.length === 0) return;
		this.menuIndex = i;
		Array.from(this.menuEl.children).forEach((row, j) => {
			row.toggleClass("is-selected", j === i);
			row.setAttr("aria-selected", String(j === i));
		});
		this.inputEl.setAttr("aria-activedescendant", `${this.menuId}-${i}`);
	}
}
