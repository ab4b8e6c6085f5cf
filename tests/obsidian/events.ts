// Events and Component: the lifecycle every Obsidian object builds on.
import type * as O from "obsidian";

type Callback = (...data: unknown[]) => unknown;

/** An EventRef as Obsidian makes it: it knows its emitter so `offref` and `registerEvent` work. */
export interface RuntimeEventRef extends O.EventRef {
	e: Events;
	name: string;
	fn: Callback;
	ctx: unknown;
}

export class Events implements O.Events {
	private handlers = new Map<string, RuntimeEventRef[]>();

	// Generic so subclasses stay assignable to Obsidian's typed overloads (on('create', (file) => ...)).
	on<A extends unknown[]>(name: string, callback: (...data: A) => unknown, ctx?: unknown): O.EventRef {
		const ref: RuntimeEventRef = { e: this, name, fn: callback as Callback, ctx };
		const list = this.handlers.get(name) ?? [];
		list.push(ref);
		this.handlers.set(name, list);
		return ref;
	}

	off<A extends unknown[]>(name: string, callback: (...data: A) => unknown): void {
		const list = this.handlers.get(name);
		if (list) this.handlers.set(name, list.filter((r) => r.fn !== (callback as Callback)));
	}

	offref(ref: O.EventRef): void {
		const r = ref as RuntimeEventRef;
		const list = this.handlers.get(r.name);
		if (list) this.handlers.set(r.name, list.filter((x) => x !== r));
	}

	trigger(name: string, ...data: unknown[]): void {
		// Copy: a handler may unsubscribe while we iterate.
		for (const ref of [...(this.handlers.get(name) ?? [])]) this.tryTrigger(ref, data);
	}

	tryTrigger(evt: O.EventRef, args: unknown[]): void {
		const r = evt as RuntimeEventRef;
		try {
			r.fn.apply(r.ctx, args);
		} catch (e) {
			// Obsidian logs a throwing handler and carries on with the others.
			console.error(e);
		}
	}
}

export class Component implements O.Component {
	private _loaded = false;
	private _children: Component[] = [];
	private _events: (() => unknown)[] = [];
	/** The promise an async `onload` returned, so harnesses can await it. Not Obsidian API. */
	loading: Promise<unknown> = Promise.resolve();

	load(): void {
		if (this._loaded) return;
		this._loaded = true;
		const result: unknown = this.onload();
		if (result instanceof Promise) this.loading = result;
		for (const child of [...this._children]) child.load();
	}

	onload(): void {}

	unload(): void {
		if (!this._loaded) return;
		this._loaded = false;
		const children = this._children;
		this._children = [];
		while (children.length) children.pop()?.unload();
		const events = this._events;
		this._events = [];
		while (events.length) events.pop()?.();
		this.onunload();
	}

	onunload(): void {}

	/** Not Obsidian API: lets tests check lifecycle state. */
	get isLoaded(): boolean {
		return this._loaded;
	}

	addChild<T extends O.Component>(component: T): T {
		const c = component as unknown as Component;
		this._children.push(c);
		if (this._loaded) c.load();
		return component;
	}

	removeChild<T extends O.Component>(component: T): T {
		const i = this._children.indexOf(component as unknown as Component);
		if (i >= 0) {
			this._children.splice(i, 1);
			component.unload();
		}
		return component;
	}

	register(cb: () => unknown): void {
		this._events.push(cb);
	}

	registerEvent(eventRef: O.EventRef): void {
		const r = eventRef as RuntimeEventRef;
		this.register(() => r.e.offref(r));
	}

	registerDomEvent(
		el: Window | Document | HTMLElement,
		type: string,
		callback: (this: HTMLElement, ev: Event) => unknown,
		options?: boolean | AddEventListenerOptions,
	): void {
		const listener = callback;
		el.addEventListener(type, listener, options);
		this.register(() => el.removeEventListener(type, listener, options));
	}

	registerInterval(id: number): number {
		this.register(() => window.clearInterval(id));
		return id;
	}
}
