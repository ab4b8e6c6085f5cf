// Setting controls: the components Setting.addText/addToggle/... create.
import type * as O from "obsidian";
import type { App } from "./app";
import { setIcon, setTooltip } from "./icons";

export abstract class BaseComponent implements O.BaseComponent {
	disabled = false;
	then(cb: (component: this) => unknown): this {
		cb(this);
		return this;
	}
	setDisabled(disabled: boolean): this {
		this.disabled = disabled;
		return this;
	}
}

export abstract class ValueComponent<T> extends BaseComponent {
	registerOptionListener(listeners: Record<string, (value?: T) => T>, key: string): this {
		listeners[key] = (value?: T) => {
			if (value !== undefined) this.setValue(value);
			return this.getValue();
		};
		return this;
	}
	abstract getValue(): T;
	abstract setValue(value: T): this;
}

export abstract class AbstractTextComponent<T extends HTMLInputElement | HTMLTextAreaElement> extends ValueComponent<string> {
	private changeCallback: ((value: string) => unknown) | null = null;
	constructor(public inputEl: T) {
		super();
		// Obsidian reports every keystroke ("input"), not only blur ("change").
		inputEl.addEventListener("input", () => this.onChanged());
	}
	override setDisabled(disabled: boolean): this {
		super.setDisabled(disabled);
		this.inputEl.disabled = disabled;
		return this;
	}
	getValue(): string {
		return this.inputEl.value;
	}
	/** Does not fire onChange, as in Obsidian. */
	setValue(value: string): this {
		this.inputEl.value = value;
		return this;
	}
	setPlaceholder(placeholder: string): this {
		this.inputEl.placeholder = placeholder;
		return this;
	}
	onChanged(): void {
		void this.changeCallback?.(this.getValue());
	}
	onChange(callback: (value: string) => unknown): this {
		this.changeCallback = callback;
		return this;
	}
}

export class TextComponent extends AbstractTextComponent<HTMLInputElement> implements O.TextComponent {
	constructor(containerEl: HTMLElement) {
		super(containerEl.createEl("input", { type: "text" }));
	}
}

export class TextAreaComponent extends AbstractTextComponent<HTMLTextAreaElement> implements O.TextAreaComponent {
	constructor(containerEl: HTMLElement) {
		super(containerEl.createEl("textarea"));
	}
}

export class ToggleComponent extends ValueComponent<boolean> implements O.ToggleComponent {
	toggleEl: HTMLElement;
	private inputEl: HTMLInputElement;
	private on = false;
	private changeCallback: ((value: boolean) => unknown) | null = null;
	constructor(containerEl: HTMLElement) {
		super();
		this.toggleEl = containerEl.createDiv("checkbox-container");
		this.inputEl = this.toggleEl.createEl("input", { type: "checkbox", attr: { tabindex: 0 } });
		this.toggleEl.addEventListener("click", () => this.onClick());
	}
	override setDisabled(disabled: boolean): this {
		super.setDisabled(disabled);
		this.toggleEl.toggleClass("is-disabled", disabled);
		return this;
	}
	getValue(): boolean {
		return this.on;
	}
	/** Like Obsidian's toggle: a change of value fires onChange. */
	setValue(on: boolean): this {
		const changed = on !== this.on;
		this.on = on;
		this.inputEl.checked = on;
		this.toggleEl.toggleClass("is-enabled", on);
		if (changed) void this.changeCallback?.(on);
		return this;
	}
	setTooltip(tooltip: string): this {
		setTooltip(this.toggleEl, tooltip);
		return this;
	}
	onClick(): void {
		if (!this.disabled) this.setValue(!this.on);
	}
	onChange(callback: (value: boolean) => unknown): this {
		this.changeCallback = callback;
		return this;
	}
}

export class DropdownComponent extends ValueComponent<string> implements O.DropdownComponent {
	selectEl: HTMLSelectElement;
	private changeCallback: ((value: string) => unknown) | null = null;
	constructor(containerEl: HTMLElement) {
		super();
		this.selectEl = containerEl.createEl("select", "dropdown");
		this.selectEl.addEventListener("change", () => void this.changeCallback?.(this.getValue()));
	}
	override setDisabled(disabled: boolean): this {
		super.setDisabled(disabled);
		this.selectEl.disabled = disabled;
		return this;
	}
	addOption(value: string, display: string): this {
		this.selectEl.createEl("option", { value, text: display });
		return this;
	}
	addOptions(options: Record<string, string>): this {
		for (const [value, display] of Object.entries(options)) this.addOption(value, display);
		return this;
	}
	getValue(): string {
		return this.selectEl.value;
	}
	setValue(value: string): this {
		this.selectEl.value = value;
		return this;
	}
	onChange(callback: (value: string) => unknown): this {
		this.changeCallback = callback;
		return this;
	}
}

export class ButtonComponent extends BaseComponent implements O.ButtonComponent {
	buttonEl: HTMLButtonElement;
	constructor(containerEl: HTMLElement) {
		super();
		this.buttonEl = containerEl.createEl("button");
	}
	override setDisabled(disabled: boolean): this {
		super.setDisabled(disabled);
		this.buttonEl.disabled = disabled;
		return this;
	}
	setCta(): this {
		this.buttonEl.addClass("mod-cta");
		return this;
	}
	removeCta(): this {
		this.buttonEl.removeClass("mod-cta");
		return this;
	}
	setWarning(): this {
		this.buttonEl.addClass("mod-warning");
		return this;
	}
	setDestructive(): this {
		this.buttonEl.addClass("mod-destructive");
		return this;
	}
	removeDestructive(): this {
		this.buttonEl.removeClass("mod-destructive");
		return this;
	}
	setTooltip(tooltip: string): this {
		setTooltip(this.buttonEl, tooltip);
		return this;
	}
	setButtonText(name: string): this {
		this.buttonEl.setText(name);
		return this;
	}
	setIcon(icon: O.IconName): this {
		setIcon(this.buttonEl, icon);
		return this;
	}
	setClass(cls: string): this {
		this.buttonEl.addClass(cls);
		return this;
	}
	onClick(callback: (evt: MouseEvent) => unknown): this {
		this.buttonEl.addEventListener("click", (evt) => void callback(evt));
		return this;
	}
}

export class ExtraButtonComponent extends BaseComponent implements O.ExtraButtonComponent {
	extraSettingsEl: HTMLElement;
	constructor(containerEl: HTMLElement) {
		super();
		this.extraSettingsEl = containerEl.createDiv("clickable-icon extra-setting-button");
	}
	override setDisabled(disabled: boolean): this {
		super.setDisabled(disabled);
		this.extraSettingsEl.toggleClass("is-disabled", disabled);
		return this;
	}
	setTooltip(tooltip: string): this {
		setTooltip(this.extraSettingsEl, tooltip);
		return this;
	}
	setIcon(icon: O.IconName): this {
		setIcon(this.extraSettingsEl, icon);
		return this;
	}
	onClick(callback: () => unknown): this {
		this.extraSettingsEl.addEventListener("click", () => {
			if (!this.disabled) void callback();
		});
		return this;
	}
}

/**
 * Picks a secret from app.secretStorage by id; its value is the id, never the secret. Obsidian's
 * control also creates secrets in a dialog; tests do that with harness.createSecretThroughUi.
 */
export class SecretComponent extends BaseComponent implements O.SecretComponent {
	readonly selectEl: HTMLSelectElement;
	private changeCallback: ((value: string) => unknown) | null = null;
	constructor(
		private readonly app: App,
		containerEl: HTMLElement,
	) {
		super();
		this.selectEl = containerEl.createEl("select", "dropdown setting-secret");
		this.refresh();
		this.selectEl.addEventListener("change", () => void this.changeCallback?.(this.selectEl.value));
		this.selectEl.addEventListener("focus", () => this.refresh(this.selectEl.value));
	}
	/** Not Obsidian API: re-reads the stored secrets' ids (the real control does so when opened). */
	refresh(selected = this.selectEl.value): void {
		this.selectEl.empty();
		this.selectEl.createEl("option", { value: "", text: "None" });
		const ids = this.app.secretStorage.listSecrets();
		// A linked id whose secret is gone still shows, so the person sees what is missing.
		if (selected && !ids.includes(selected)) ids.push(selected);
		for (const id of ids) this.selectEl.createEl("option", { value: id, text: id });
		this.selectEl.value = selected;
	}
	setValue(value: string): this {
		this.refresh(value);
		return this;
	}
	/** Not Obsidian API (the real control keeps it private): the selected secret's id. */
	getValue(): string {
		return this.selectEl.value;
	}
	onChange(cb: (value: string) => unknown): this {
		this.changeCallback = cb;
		return this;
	}
}
