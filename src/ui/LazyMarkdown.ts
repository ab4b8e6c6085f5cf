import { Component } from "obsidian";
import type { App } from "obsidian";
import { renderUntrustedMarkdown } from "./safeMarkdown";
import { renderAndSwap } from "./renderSwap";

/** How far beyond the view Markdown is rendered ahead of time. */
const MARGIN_PX = 200;

/**
 * Renders Markdown only when it scrolls into view: a long chat opens at once as plain text, and
 * what the person actually looks at is rendered. One Component holds everything rendered.
 */
export class LazyMarkdown extends Component {
	private observer: IntersectionObserver | undefined;
	private readonly pending = new Map<Element, string>();
	/** Renders started (by the observer or `renderInView`) and not finished yet. */
	private readonly rendering = new Set<Promise<void>>();
	private closed = false;

	constructor(
		private readonly app: App,
		private readonly root: HTMLElement,
		private readonly sourcePath = "",
		/** The "Load images from the web in answers" setting. */
		private readonly loadRemoteImages: () => boolean = () => false,
	) {
		super();
	}

	override onload(): void {
		const Observer = (this.root.win as unknown as { IntersectionObserver?: typeof IntersectionObserver }).IntersectionObserver;
		// Without IntersectionObserver (tests, old webviews) the plain text stays: still readable.
		if (!Observer) return;
		this.observer = new Observer((entries) => this.onVisible(entries), { root: this.root, rootMargin: `${MARGIN_PX}px 0px` });
		for (const el of this.pending.keys()) this.observer.observe(el);
	}

	override onunload(): void {
		this.closed = true;
		this.observer?.disconnect();
		this.observer = undefined;
		this.pending.clear();
	}

	/** Shows `markdown` as text in `el` now, rendered once `el` is near the viewport. */
	add(el: HTMLElement, markdown: string): void {
		el.setText(markdown);
		el.addClass("is-plain");
		this.pending.set(el, markdown);
		this.observer?.observe(el);
	}

	/**
	 * Renders now, without waiting for the observer, what is in or near the view, and waits for every
	 * render under way (the observer's too); resolves once they show, with how many there were. Lets
	 * a caller put the view in place before anyone sees it: nothing started changes heights after.
	 */
	async renderInView(): Promise<number> {
		const view = this.root.getBoundingClientRect();
		for (const el of Array.from(this.pending.keys())) {
			const r = el.getBoundingClientRect();
			if (r.bottom >= view.top - MARGIN_PX && r.top <= view.bottom + MARGIN_PX) this.render(el as HTMLElement);
		}
		const waiting = Array.from(this.rendering);
		await Promise.all(waiting);
		return waiting.length;
	}

	private onVisible(entries: IntersectionObserverEntry[]): void {
		for (const entry of entries) if (entry.isIntersecting) this.render(entry.target as HTMLElement);
	}

	private render(el: HTMLElement): void {
		// A render that fails leaves the plain text: still readable.
		const done = this.renderNow(el)
			.catch(() => undefined)
			.finally(() => this.rendering.delete(done));
		this.rendering.add(done);
	}

	private async renderNow(el: HTMLElement): Promise<void> {
		const markdown = this.pending.get(el);
		this.observer?.unobserve(el);
		this.pending.delete(el);
		if (markdown === undefined) return;
		// A render that fails leaves the plain text (no fallback text): still readable.
		await renderAndSwap({
			render: (target) => renderUntrustedMarkdown(this.app, markdown, target, this.sourcePath, this, this.loadRemoteImages()),
			component: this,
			// Closed or switched to another chat meanwhile: nothing to show it in.
			isCurrent: () => !this.closed,
			swap: (target) => {
				el.removeClass("is-plain");
				el.replaceChildren(...Array.from(target.childNodes));
			},
		});
	}
}
