// Scope: a layer of key handlers. Modals push one; Esc closes them through it.
import type * as O from "obsidian";

interface Handler extends O.KeymapEventHandler {
	func: O.KeymapEventListener;
}

function modifiersOf(evt: KeyboardEvent): string {
	const mods: string[] = [];
	// "Mod" is Ctrl here: the runtime reports a Linux platform.
	if (evt.ctrlKey) mods.push("Mod");
	if (evt.altKey) mods.push("Alt");
	if (evt.shiftKey) mods.push("Shift");
	if (evt.metaKey) mods.push("Meta");
	return mods.join(",");
}

export class Scope implements O.Scope {
	private handlers: Handler[] = [];
	constructor(readonly parent?: Scope) {}

	register(modifiers: O.Modifier[] | null, key: string | null, func: O.KeymapEventListener): O.KeymapEventHandler {
		const normalized = modifiers === null ? null : modifiers.map((m) => (m === "Ctrl" ? "Mod" : m)).sort((a, b) => order(a) - order(b)).join(",");
		const handler: Handler = { scope: this, modifiers: normalized, key, func };
		this.handlers.push(handler);
		return handler;
	}

	unregister(handler: O.KeymapEventHandler): void {
		this.handlers = this.handlers.filter((h) => h !== handler);
	}

	/** Internal (Obsidian's keymap calls it): true when a handler consumed the event. */
	handleKey(evt: KeyboardEvent): boolean {
		const mods = modifiersOf(evt);
		for (const h of [...this.handlers].reverse()) {
			if (h.key !== null && h.key.toLowerCase() !== evt.key.toLowerCase()) continue;
			if (h.modifiers !== null && h.modifiers !== mods) continue;
			const result: unknown = h.func(evt, { modifiers: mods, key: evt.key, vkey: evt.key });
			if (result === false) {
				evt.preventDefault();
				return true;
			}
		}
		return this.parent?.handleKey(evt) ?? false;
	}
}

function order(mod: string): number {
	return ["Mod", "Alt", "Shift", "Meta"].indexOf(mod);
}
