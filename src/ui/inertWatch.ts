// Keeps rendered untrusted Markdown inert after the render. Obsidian fills some things in later, on
// its own time: an embed's note once it is read, a canvas or PDF embed, other plugins' post-
// processors. The pass over the rendered tree (inertDom.ts) has run by then, so whatever arrives
// later — a remote <img>, an <iframe>, a style with url() — gets the same pass as it arrives, for as
// long as the rendered element lives. Tied to the render's Component: unloading it disconnects.
//
// The panel's own embeds of notes (noteEmbed.ts) render their note inert before it is attached; this
// watch is the line behind it, for fills the panel does not make itself.
import type { Component } from "obsidian";
import { makeElementInert, makeTreeInert, type InertOptions } from "./inertDom";

const WATCHED: MutationObserverInit = { subtree: true, childList: true, attributes: true, characterData: true };

/**
 * Runs the inert pass on every subtree added under `root`, and on every element whose attributes or
 * style text change, until `component` unloads. `root`'s element children are watched one by one too:
 * a watch on a node follows it when it is moved into the element on screen.
 */
export function keepInert(root: HTMLElement, options: InertOptions, component: Component): void {
	const Observer = root.ownerDocument.defaultView?.MutationObserver;
	// Without MutationObserver (no DOM that has one) there is nothing that could fill in later either.
	if (!Observer) return;
	const observer = new Observer((records) => {
		for (const record of records) handle(record, options);
	});
	observer.observe(root, WATCHED);
	for (const child of Array.from(root.children)) observer.observe(child, WATCHED);
	component.register(() => observer.disconnect());
}

function handle(record: MutationRecord, options: InertOptions): void {
	if (record.type === "childList") {
		for (const node of Array.from(record.addedNodes)) {
			// Gone again meanwhile: another record brings it back if it returns.
			if (node.parentNode === null) continue;
			if (node.nodeType === 1) makeTreeInert(node as Element, options);
			else if (node.parentElement?.localName.toLowerCase() === "style") makeElementInert(node.parentElement, options);
		}
		return;
	}
	const target = record.type === "characterData" ? record.target.parentElement : (record.target as Element);
	if (target?.parentNode) makeElementInert(target, options);
}
