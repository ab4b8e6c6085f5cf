// Obsidian's DOM helpers (declared globally by obsidian.d.ts), installed on a real DOM:
// Chromium in the browser test, happy-dom in vitest. No Node modules here: esbuild bundles this file.
import type {} from "obsidian";

type Win = Window & typeof window;
type AttrValue = string | number | boolean | null;
/** Obsidian's global EventListenerInfo (from obsidian.d.ts), named here for the linter. */
type ListenerInfo = HTMLElement["_EVENTS"] extends infer E ? (E extends Record<string, (infer I)[] | undefined> ? I : never) : never;

function define(target: object, name: string, value: unknown): void {
	Object.defineProperty(target, name, { value, configurable: true, writable: true, enumerable: false });
}

function applyInfo(el: HTMLElement, info: DomElementInfo | string | undefined, parent: Node | undefined): void {
	const o: DomElementInfo = typeof info === "string" ? { cls: info } : (info ?? {});
	if (o.cls !== undefined) el.className = Array.isArray(o.cls) ? o.cls.join(" ") : o.cls;
	if (o.text !== undefined) el.setText(o.text);
	if (o.attr) el.setAttrs(o.attr);
	if (o.title !== undefined) el.title = o.title;
	if (o.value !== undefined && "value" in el) (el as HTMLInputElement).value = o.value;
	if (o.type !== undefined) el.setAttribute("type", o.type);
	if (o.placeholder !== undefined) el.setAttribute("placeholder", o.placeholder);
	if (o.href !== undefined) el.setAttribute("href", o.href);
	const target = o.parent ?? parent;
	if (target) {
		if (o.prepend) target.insertBefore(el, target.firstChild);
		else target.appendChild(el);
	}
}

function makeCreateEl(doc: () => Document) {
	return function <K extends keyof HTMLElementTagNameMap>(
		this: Node | undefined,
		tag: K,
		o?: DomElementInfo | string,
		callback?: (el: HTMLElementTagNameMap[K]) => void,
	): HTMLElementTagNameMap[K] {
		const owner = this && typeof this === "object" && "nodeType" in this ? this : undefined;
		const el = (owner?.ownerDocument ?? doc()).createElement(tag);
		applyInfo(el, o, owner);
		callback?.(el);
		return el;
	};
}

function installNode(win: Win): void {
	const doc = (): Document => win.document;
	const createEl = makeCreateEl(doc);
	const proto = win.Node.prototype;
	define(proto, "detach", function (this: Node) {
		this.parentNode?.removeChild(this);
	});
	define(proto, "empty", function (this: Node) {
		while (this.lastChild) this.removeChild(this.lastChild);
	});
	define(proto, "insertAfter", function <T extends Node>(this: Node, node: T, child: Node | null): T {
		this.insertBefore(node, child ? child.nextSibling : this.firstChild);
		return node;
	});
	define(proto, "indexOf", function (this: Node, other: Node) {
		return Array.prototype.indexOf.call(this.childNodes, other);
	});
	define(proto, "setChildrenInPlace", function (this: Node, children: Node[]) {
		this.empty();
		for (const c of children) this.appendChild(c);
	});
	define(proto, "appendText", function (this: Node, val: string) {
		this.appendChild((this.ownerDocument ?? doc()).createTextNode(val));
	});
	define(proto, "instanceOf", function (this: Node, type: new () => unknown) {
		// The test runtime has one window, so the cross-window check is plain instanceof.
		return this instanceof type;
	});
	Object.defineProperty(proto, "doc", {
		configurable: true,
		get(this: Node) {
			return this.ownerDocument ?? doc();
		},
	});
	Object.defineProperty(proto, "win", {
		configurable: true,
		get(this: Node) {
			return (this.ownerDocument ?? doc()).defaultView ?? win;
		},
	});
	Object.defineProperty(proto, "constructorWin", { configurable: true, get: () => win });
	define(proto, "createEl", createEl);
	define(proto, "createDiv", function (this: Node, o?: DomElementInfo | string, cb?: (el: HTMLDivElement) => void) {
		return createEl.call(this, "div", o, cb as (el: HTMLElement) => void);
	});
	define(proto, "createSpan", function (this: Node, o?: DomElementInfo | string, cb?: (el: HTMLSpanElement) => void) {
		return createEl.call(this, "span", o, cb);
	});
	define(proto, "createSvg", function (this: Node, tag: string, o?: SvgElementInfo | string, cb?: (el: SVGElement) => void) {
		const info: SvgElementInfo = typeof o === "string" ? { cls: o } : (o ?? {});
		const el = (this.ownerDocument ?? doc()).createElementNS("http://www.w3.org/2000/svg", tag);
		if (info.cls !== undefined) el.setAttribute("class", Array.isArray(info.cls) ? info.cls.join(" ") : info.cls);
		if (info.attr) el.setAttrs(info.attr);
		const parent = info.parent ?? this;
		if (info.prepend) parent.insertBefore(el, parent.firstChild);
		else parent.appendChild(el);
		cb?.(el);
		return el;
	});
	// Globals: createEl() & co. create detached elements in the active document.
	const g = win as unknown as Record<string, unknown>;
	g.createEl = (tag: keyof HTMLElementTagNameMap, o?: DomElementInfo | string, cb?: (el: HTMLElement) => void) =>
		createEl.call(undefined, tag, o, cb);
	g.createDiv = (o?: DomElementInfo | string, cb?: (el: HTMLDivElement) => void) => createEl.call(undefined, "div", o, cb as (el: HTMLElement) => void);
	g.createSpan = (o?: DomElementInfo | string, cb?: (el: HTMLSpanElement) => void) => createEl.call(undefined, "span", o, cb);
	g.createSvg = (tag: string, o?: SvgElementInfo | string, cb?: (el: SVGElement) => void) => {
		// A detached SVG element: create it inside a throwaway parent, then detach it.
		const holder = doc().createElement("div");
		const el = holder.createSvg(tag as keyof SVGElementTagNameMap, o, cb);
		el.detach();
		return el;
	};
	g.createFragment = (cb?: (el: DocumentFragment) => void) => {
		const frag = doc().createDocumentFragment();
		cb?.(frag);
		return frag;
	};
	g.activeWindow = win;
	g.activeDocument = win.document;
	g.sleep = (ms: number) => new Promise<void>((resolve) => win.setTimeout(resolve, ms));
	g.nextFrame = () => new Promise<void>((resolve) => win.requestAnimationFrame(() => resolve()));
	g.fish = (selector: string) => doc().querySelector<HTMLElement>(selector);
	g.fishAll = (selector: string) => Array.from(doc().querySelectorAll<HTMLElement>(selector));
}

function installElement(win: Win): void {
	const proto = win.Element.prototype;
	define(proto, "getText", function (this: Element) {
		return this.textContent ?? "";
	});
	define(proto, "setText", function (this: Element, val: string | DocumentFragment) {
		if (typeof val === "string") this.textContent = val;
		else {
			this.empty();
			this.appendChild(val);
		}
	});
	define(proto, "addClass", function (this: Element, ...classes: string[]) {
		this.classList.add(...classes.filter((c) => c));
	});
	define(proto, "addClasses", function (this: Element, classes: string[]) {
		this.classList.add(...classes.filter((c) => c));
	});
	define(proto, "removeClass", function (this: Element, ...classes: string[]) {
		this.classList.remove(...classes);
	});
	define(proto, "removeClasses", function (this: Element, classes: string[]) {
		this.classList.remove(...classes);
	});
	define(proto, "toggleClass", function (this: Element, classes: string | string[], value: boolean) {
		for (const c of Array.isArray(classes) ? classes : [classes]) this.classList.toggle(c, value);
	});
	define(proto, "hasClass", function (this: Element, cls: string) {
		return this.classList.contains(cls);
	});
	define(proto, "setAttr", function (this: Element, name: string, value: AttrValue) {
		if (value === null) this.removeAttribute(name);
		else this.setAttribute(name, String(value));
	});
	define(proto, "setAttrs", function (this: Element, obj: Record<string, AttrValue>) {
		for (const [k, v] of Object.entries(obj)) this.setAttr(k, v);
	});
	define(proto, "getAttr", function (this: Element, name: string) {
		return this.getAttribute(name);
	});
	define(proto, "matchParent", function (this: Element, selector: string, lastParent?: Element) {
		if (this.matches(selector)) return this;
		let el: Element | null = this.parentElement;
		while (el && el !== lastParent) {
			if (el.matches(selector)) return el;
			el = el.parentElement;
		}
		return null;
	});
	define(proto, "isActiveElement", function (this: Element) {
		return this.ownerDocument.activeElement === this;
	});
	define(proto, "find", function (this: Element, selector: string) {
		return this.querySelector(selector);
	});
	define(proto, "findAll", function (this: Element, selector: string) {
		return Array.from(this.querySelectorAll(selector));
	});
	define(proto, "findAllSelf", function (this: Element, selector: string) {
		const found = Array.from(this.querySelectorAll(selector));
		return this.matches(selector) ? [this, ...found] : found;
	});
	const frag = win.DocumentFragment.prototype;
	define(frag, "find", function (this: DocumentFragment, selector: string) {
		return this.querySelector(selector);
	});
	define(frag, "findAll", function (this: DocumentFragment, selector: string) {
		return Array.from(this.querySelectorAll(selector));
	});
}

function installHTMLElement(win: Win): void {
	const proto = win.HTMLElement.prototype;
	define(proto, "show", function (this: HTMLElement) {
		this.style.removeProperty("display");
	});
	define(proto, "hide", function (this: HTMLElement) {
		this.setCssProps({ display: "none" });
	});
	define(proto, "toggle", function (this: HTMLElement, show: boolean) {
		if (show) this.show();
		else this.hide();
	});
	define(proto, "toggleVisibility", function (this: HTMLElement, visible: boolean) {
		this.style.visibility = visible ? "" : "hidden";
	});
	define(proto, "isShown", function (this: HTMLElement) {
		return this.style.display !== "none" && this.isConnected;
	});
	define(proto, "setCssStyles", function (this: HTMLElement, styles: Partial<CSSStyleDeclaration>) {
		Object.assign(this.style, styles);
	});
	define(proto, "setCssProps", function (this: HTMLElement, props: Record<string, string>) {
		for (const [k, v] of Object.entries(props)) this.style.setProperty(k, v);
	});
	define(proto, "onClickEvent", function (this: HTMLElement, listener: (ev: MouseEvent) => unknown, options?: boolean | AddEventListenerOptions) {
		this.addEventListener("click", listener, options);
		this.addEventListener("auxclick", listener, options);
	});
	define(proto, "trigger", function (this: HTMLElement, eventType: string) {
		this.dispatchEvent(new win.Event(eventType, { bubbles: true, cancelable: true }));
	});
	// Delegated listeners: `listener` runs when the event's target is inside an element matching `selector`.
	define(proto, "on", function (this: HTMLElement, type: string, selector: string, listener: (ev: Event, target: HTMLElement) => unknown, options?: boolean | AddEventListenerOptions) {
		const callback = (ev: Event): void => {
			const target = ev.target instanceof win.Element ? ev.target.closest(selector) : null;
			if (target instanceof win.HTMLElement && this.contains(target)) listener.call(this, ev, target);
		};
		const events = (this._EVENTS ??= {}) as Record<string, ListenerInfo[]>;
		(events[type] ??= []).push({ selector, listener, options, callback });
		this.addEventListener(type, callback, options);
	});
	define(proto, "off", function (this: HTMLElement, type: string, selector: string, listener: unknown, options?: boolean | AddEventListenerOptions) {
		const list = (this._EVENTS as Record<string, ListenerInfo[]> | undefined)?.[type] ?? [];
		for (const info of list.filter((i) => i.selector === selector && i.listener === listener)) {
			this.removeEventListener(type, info.callback as EventListener, options);
			list.splice(list.indexOf(info), 1);
		}
	});
}

/** Installs Obsidian's DOM helpers on `win`'s prototypes and globals. Idempotent. */
export function installDomHelpers(win: Window): void {
	const w = win as Win;
	installNode(w);
	installElement(w);
	installHTMLElement(w);
}
