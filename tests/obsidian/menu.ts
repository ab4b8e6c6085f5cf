// Menu and MenuItem: Obsidian's context menu, as a DOM list appended to the body. Items run their
// callback on click and the menu closes, as in Obsidian; a disabled item does nothing.
import type * as O from "obsidian";
import { Component } from "./events";
import { setIcon } from "./icons";

export class MenuItem {
	readonly dom: HTMLElement;
	private readonly iconEl: HTMLElement;
	private readonly titleEl: HTMLElement;
	private callback: ((evt: MouseEvent | KeyboardEvent) => unknown) | undefined;
	disabled = false;
	checked: boolean | null = null;
	section = "";

	/** Built by Menu.addItem only, as in Obsidian. */
	constructor(private readonly menu: Menu) {
		this.dom = createDiv({ cls: "menu-item" });
		this.iconEl = this.dom.createDiv({ cls: "menu-item-icon" });
		this.titleEl = this.dom.createDiv({ cls: "menu-item-title" });
		this.dom.addEventListener("click", (evt) => {
			if (this.disabled) return;
			this.menu.hide();
			void this.callback?.(evt);
		});
	}

	setTitle(title: string | DocumentFragment): this {
		this.titleEl.empty();
		if (typeof title === "string") this.titleEl.setText(title);
		else this.titleEl.appendChild(title);
		return this;
	}

	setIcon(icon: O.IconName | null): this {
		this.iconEl.empty();
		if (icon !== null) setIcon(this.iconEl, icon);
		return this;
	}

	setChecked(checked: boolean | null): this {
		this.checked = checked;
		this.dom.toggleClass("mod-checked", checked === true);
		return this;
	}

	setDisabled(disabled: boolean): this {
		this.disabled = disabled;
		this.dom.toggleClass("is-disabled", disabled);
		return this;
	}

	setWarning(isWarning: boolean): this {
		this.dom.toggleClass("mod-warning", isWarning);
		return this;
	}

	setIsLabel(isLabel: boolean): this {
		this.dom.toggleClass("is-label", isLabel);
		return this;
	}

	onClick(callback: (evt: MouseEvent | KeyboardEvent) => unknown): this {
		this.callback = callback;
		return this;
	}

	setSection(section: string): this {
		this.section = section;
		return this;
	}
}

export class Menu extends Component {
	readonly dom: HTMLElement;
	readonly items: MenuItem[] = [];
	private parentEl: HTMLElement | undefined;
	private readonly hideCallbacks: (() => unknown)[] = [];
	private shown = false;

	constructor() {
		super();
		this.dom = createDiv({ cls: "menu" });
	}

	static forEvent(_evt: PointerEvent | MouseEvent): Menu {
		return new Menu();
	}

	setNoIcon(): this {
		this.dom.addClass("mod-no-icon");
		return this;
	}

	setUseNativeMenu(_useNativeMenu: boolean): this {
		return this;
	}

	addItem(cb: (item: MenuItem) => unknown): this {
		const item = new MenuItem(this);
		this.items.push(item);
		this.dom.appendChild(item.dom);
		cb(item);
		return this;
	}

	addSeparator(): this {
		this.dom.createDiv({ cls: "menu-separator" });
		return this;
	}

	setParentElement(el: HTMLElement): this {
		this.parentEl = el;
		return this;
	}

	showAtMouseEvent(evt: MouseEvent): this {
		return this.showAtPosition({ x: evt.clientX, y: evt.clientY });
	}

	showAtPosition(position: O.MenuPositionDef, doc: Document = activeDocument): this {
		(this.parentEl ?? doc.body).appendChild(this.dom);
		// As Obsidian does: `left` opens the menu leftwards from x, and the menu stays in the window.
		const view = doc.defaultView;
		const width = this.dom.offsetWidth;
		const height = this.dom.offsetHeight;
		let x = position.left === true ? position.x - width : position.x;
		let y = position.y;
		if (view) {
			x = Math.max(0, Math.min(x, view.innerWidth - width));
			y = Math.max(0, Math.min(y, view.innerHeight - height));
		}
		this.dom.style.left = `${x}px`;
		this.dom.style.top = `${y}px`;
		this.shown = true;
		this.load();
		return this;
	}

	hide(): this {
		if (!this.shown) return this;
		this.shown = false;
		this.dom.detach();
		this.unload();
		for (const cb of this.hideCallbacks.splice(0)) cb();
		return this;
	}

	close(): void {
		this.hide();
	}

	onHide(callback: () => unknown): void {
		this.hideCallbacks.push(callback);
	}

	onHistoryBack(): void {
		this.hide();
	}
}
