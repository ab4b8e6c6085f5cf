// Setting rows and setting tabs, with the DOM structure Obsidian gives them.
import type * as O from "obsidian";
import type { App } from "./app";
import {
	ButtonComponent,
	DropdownComponent,
	ExtraButtonComponent,
	TextAreaComponent,
	TextComponent,
	ToggleComponent,
	type BaseComponent,
} from "./components";
import { setTooltip } from "./icons";
import type { Plugin } from "./plugin";

export class Setting {
	settingEl: HTMLElement;
	infoEl: HTMLElement;
	nameEl: HTMLElement;
	descEl: HTMLElement;
	controlEl: HTMLElement;
	components: BaseComponent[] = [];
	errorEl: HTMLElement | null = null;

	constructor(containerEl: HTMLElement) {
		this.settingEl = containerEl.createDiv("setting-item");
		this.infoEl = this.settingEl.createDiv("setting-item-info");
		this.nameEl = this.infoEl.createDiv("setting-item-name");
		this.descEl = this.infoEl.createDiv("setting-item-description");
		this.controlEl = this.settingEl.createDiv("setting-item-control");
	}

	setName(name: string | DocumentFragment): this {
		this.nameEl.setText(name);
		return this;
	}
	setDesc(desc: string | DocumentFragment): this {
		this.descEl.setText(desc);
		return this;
	}
	setClass(cls: string): this {
		this.settingEl.addClass(cls);
		return this;
	}
	setTooltip(tooltip: string): this {
		setTooltip(this.nameEl, tooltip);
		return this;
	}
	setHeading(): this {
		this.settingEl.addClass("setting-item-heading");
		return this;
	}
	setDisabled(disabled: boolean): this {
		this.settingEl.toggleClass("is-disabled", disabled);
		for (const c of this.components) c.setDisabled(disabled);
		return this;
	}
	setErrorMessage(message: string | null): this {
		if (message === null) {
			this.errorEl?.detach();
			this.errorEl = null;
		} else {
			this.errorEl ??= this.infoEl.createDiv("setting-item-error");
			this.errorEl.setText(message);
		}
		return this;
	}

	private add<T extends BaseComponent>(component: T, cb: (component: T) => unknown): this {
		this.components.push(component);
		cb(component);
		return this;
	}
	addButton(cb: (component: O.ButtonComponent) => unknown): this {
		return this.add(new ButtonComponent(this.controlEl), cb);
	}
	addExtraButton(cb: (component: O.ExtraButtonComponent) => unknown): this {
		return this.add(new ExtraButtonComponent(this.controlEl), cb);
	}
	addToggle(cb: (component: O.ToggleComponent) => unknown): this {
		return this.add(new ToggleComponent(this.controlEl), cb);
	}
	addText(cb: (component: O.TextComponent) => unknown): this {
		return this.add(new TextComponent(this.controlEl), cb);
	}
	addTextArea(cb: (component: O.TextAreaComponent) => unknown): this {
		return this.add(new TextAreaComponent(this.controlEl), cb);
	}
	addDropdown(cb: (component: O.DropdownComponent) => unknown): this {
		return this.add(new DropdownComponent(this.controlEl), cb);
	}
	addComponent<T extends O.BaseComponent>(cb: (el: HTMLElement) => T): this {
		this.components.push(cb(this.controlEl));
		return this;
	}
	then(cb: (setting: this) => unknown): this {
		cb(this);
		return this;
	}
	clear(): this {
		this.controlEl.empty();
		this.components = [];
		return this;
	}
}

export abstract class SettingTab {
	icon: O.IconName = "settings";
	app: App;
	containerEl: HTMLElement;

	constructor(app: App) {
		this.app = app;
		this.containerEl = createDiv("vertical-tab-content");
	}

	abstract display(): void;

	/** Obsidian empties the tab when the settings window leaves it. */
	hide(): void {
		this.containerEl.empty();
	}
}

export abstract class PluginSettingTab extends SettingTab {
	/** Not Obsidian API: the plugin the tab belongs to. */
	readonly ownerPlugin: Plugin;
	constructor(app: App, plugin: Plugin) {
		super(app);
		this.ownerPlugin = plugin;
	}
}
