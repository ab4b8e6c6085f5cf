// Images waiting in the composer: attached by the button, by pasting, or by dropping them on the
// input; shown as thumbnails with a remove button; handed to the send, and given back when the
// model could not read them (so the person can switch model and send again).
import { setIcon } from "obsidian";
import type { ImageRef } from "../../core/types";
import { t } from "../../i18n";
import { ACCEPTED_TYPES } from "../images/imagePlan";

export interface ComposerImagesHandlers {
	/** Prepares (downscales) and saves the file, returning its reference; throws a message the person reads. */
	attach: (file: File) => Promise<ImageRef>;
	/** An image was removed before sending: its file goes. */
	discard: (ref: ImageRef) => void;
	/** The thumbnail's address (a vault resource). */
	src: (ref: ImageRef) => string;
	onError: (message: string) => void;
	/** The set changed (the budget meter counts images). */
	onChange?: () => void;
}

export class ComposerImages {
	private readonly stripEl: HTMLElement;
	private readonly fileInput: HTMLInputElement;
	private pending: ImageRef[] = [];

	constructor(composerEl: HTMLElement, rowEl: HTMLElement, inputEl: HTMLTextAreaElement, private readonly handlers: ComposerImagesHandlers) {
		this.stripEl = composerEl.createDiv({ cls: ["discover-chat-composer-images", "discover-chat-hidden"] });
		composerEl.insertBefore(this.stripEl, rowEl);
		this.fileInput = composerEl.createEl("input", { cls: "discover-chat-hidden", attr: { type: "file", accept: ACCEPTED_TYPES.join(","), multiple: "" } });
		const button = rowEl.createEl("button", { cls: ["discover-chat-attach", "clickable-icon"], attr: { type: "button", "aria-label": t("composer.attachImage") } });
		rowEl.insertBefore(button, inputEl);
		setIcon(button, "image-plus");
		button.addEventListener("click", () => this.fileInput.click());
		this.fileInput.addEventListener("change", () => {
			void this.addFiles([...(this.fileInput.files ?? [])]);
			this.fileInput.value = "";
		});
		inputEl.addEventListener("paste", (e) => {
			const files = [...(e.clipboardData?.files ?? [])].filter((f) => f.type.startsWith("image/"));
			if (files.length === 0) return;
			// Only the images are taken: pasted text still goes into the input as usual.
			e.preventDefault();
			void this.addFiles(files);
		});
		composerEl.addEventListener("dragover", (e) => {
			if (e.dataTransfer?.types.includes("Files")) e.preventDefault();
		});
		composerEl.addEventListener("drop", (e) => {
			// Only image files: notes dragged from the vault are the sources' to take.
			const files = [...(e.dataTransfer?.files ?? [])].filter((f) => f.type.startsWith("image/") || f.type === "");
			if (files.length === 0) return;
			e.preventDefault();
			e.stopPropagation();
			void this.addFiles(files);
		});
	}

	/** The images to send with the message. */
	get images(): readonly ImageRef[] {
		return this.pending;
	}

	/** Hands the images to a send and empties the strip (the files stay: the message names them). */
	take(): ImageRef[] {
		const taken = this.pending;
		this.pending = [];
		this.render();
		return taken;
	}

	/** Puts images back (the model could not read them, or the send was stopped before it went out). */
	restore(images: readonly ImageRef[]): void {
		const known = new Set(this.pending.map((i) => i.path));
		this.pending = [...images.filter((i) => !known.has(i.path)), ...this.pending];
		this.render();
	}

	private async addFiles(files: File[]): Promise<void> {
		for (const file of files) {
			try {
				this.pending = [...this.pending, await this.handlers.attach(file)];
				this.render();
			} catch (err) {
				this.handlers.onError(err instanceof Error ? err.message : String(err));
			}
		}
	}

	private remove(ref: ImageRef): void {
		this.pending = this.pending.filter((i) => i !== ref);
		this.handlers.discard(ref);
		this.render();
	}

	private render(): void {
		this.stripEl.empty();
		this.stripEl.toggleClass("discover-chat-hidden", this.pending.length === 0);
		for (const ref of this.pending) {
			const name = ref.path.split("/").pop() ?? ref.path;
			const item = this.stripEl.createDiv({ cls: "discover-chat-composer-image" });
			item.createEl("img", { cls: "discover-chat-composer-image-thumb", attr: { src: this.handlers.src(ref), alt: name } });
			const remove = item.createEl("button", { cls: ["discover-chat-composer-image-remove", "clickable-icon"], attr: { type: "button", "aria-label": t("composer.removeImage") } });
			setIcon(remove, "x");
			remove.addEventListener("click", () => this.remove(ref));
		}
		this.handlers.onChange?.();
	}
}
