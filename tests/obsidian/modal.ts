// Modal and Notice.
import type { App } from "./app";
import { Scope } from "./scope";

export class Modal {
	app: App;
	containerEl: HTMLElement;
	modalEl: HTMLElement;
	titleEl: HTMLElement;
	contentEl: HTMLElement;
	shouldRestoreSelection = true;
	scope: Scope = new Scope();
	private closeCallback: (() => unknown) | null = null;
	private isOpen = false;
	// Only the topmost modal's scope sees keys, as with Obsidian's keymap stack.
	private readonly onKeydown = (evt: KeyboardEvent): void => {
		if (!evt.defaultPrevented && this.isTopmost()) this.scope.handleKey(evt);
	};

	constructor(app: App) {
		this.app = app;
		this.scope.register([], "Escape", () => {
			this.close();
			return false;
		});
		this.containerEl = createDiv("modal-container mod-dim");
		this.containerEl.createDiv("modal-bg").addEventListener("click", () => this.close());
		this.modalEl = this.containerEl.createDiv("modal");
		const closeButton = this.modalEl.createDiv({ cls: "modal-close-button", attr: { "aria-label": "Close" } });
		closeButton.addEventListener("click", () => this.close());
		this.titleEl = this.modalEl.createDiv("modal-header").createDiv("modal-title");
		this.contentEl = this.modalEl.createDiv("modal-content");
	}

	private isTopmost(): boolean {
		const all = Array.from(this.containerEl.doc.body.children).filter((c) => c.hasClass("modal-container"));
		return all[all.length - 1] === this.containerEl;
	}

	open(): void {
		if (this.isOpen) return;
		this.isOpen = true;
		this.containerEl.doc.body.appendChild(this.containerEl);
		this.containerEl.win.addEventListener("keydown", this.onKeydown);
		void this.onOpen();
	}

	close(): void {
		if (!this.isOpen) return;
		this.isOpen = false;
		this.containerEl.win.removeEventListener("keydown", this.onKeydown);
		this.containerEl.detach();
		this.onClose();
		void this.closeCallback?.();
	}

	onOpen(): Promise<void> | void {}
	onClose(): void {}

	setTitle(title: string): this {
		this.titleEl.setText(title);
		return this;
	}
	setContent(content: string | DocumentFragment): this {
		this.contentEl.setText(content);
		return this;
	}
	setCloseCallback(callback: () => unknown): this {
		this.closeCallback = callback;
		return this;
	}
}

/** Not Obsidian API: every notice shown, newest last, so tests can assert on them. */
export const shownNotices: Notice[] = [];

export class Notice {
	noticeEl: HTMLElement;
	containerEl: HTMLElement;
	messageEl: HTMLElement;
	/** Not Obsidian API: the notice's text. */
	message: string;

	constructor(message: string | DocumentFragment, duration?: number) {
		const doc = activeDocument;
		const existing = Array.from(doc.body.children).find((c): c is HTMLElement => c.hasClass("notice-container"));
		this.containerEl = existing ?? doc.body.createDiv("notice-container");
		this.noticeEl = this.containerEl.createDiv("notice");
		this.messageEl = this.noticeEl.createDiv("notice-message");
		this.message = "";
		this.setMessage(message);
		shownNotices.push(this);
		// duration 0 keeps the notice until hidden; the default is about five seconds.
		if (duration !== 0) window.setTimeout(() => this.hide(), duration ?? 5000);
	}

	setMessage(message: string | DocumentFragment): this {
		this.messageEl.setText(message);
		this.message = this.messageEl.getText();
		return this;
	}

	hide(): void {
		this.noticeEl.detach();
	}
}
