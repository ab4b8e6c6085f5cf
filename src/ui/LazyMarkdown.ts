import { Component, MarkdownRenderer } from "obsidian";
import type { App } from "obsidian";

/**
 * Renders Markdown only when it scrolls into view: a long chat opens at once as plain text, and
 * what the person actually looks at is rendered. One Component holds everything rendered.
 */
export class LazyMarkdown extends Component {
	private observer: IntersectionObserver | undefined;
	private readonly pending = new Map<Element, string>();

	constructor(
		private readonly app: App,
		private readonly root: HTMLElement,
		private readonly sourcePath = "",
	) {
		super();
	}

	override onload(): void {
		const Observer = (this.root.win as unknown as { IntersectionObserver?: typeof IntersectionObserver }).IntersectionObserver;
		// Without IntersectionObserver (tests, old webviews) the plain text stays: still readable.
		if (!Observer) return;
		this.observer = new Observer((entries) => this.onVisible(entries), { root: this.root, rootMargin: "200px 0px" });
		for (const el of this.pending.keys()) this.observer.observe(el);
	}

	override onunload(): void {
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

	private onVisible(entries: IntersectionObserverEntry[]): void {
		for (const entry of entries) {
			if (!entry.isIntersecting) continue;
			const el = entry.target as HTMLElement;
			const markdown = this.pending.get(el);
			this.observer?.unobserve(el);
			this.pending.delete(el);
			if (markdown === undefined) continue;
			const target = createDiv();
			void MarkdownRenderer.render(this.app, markdown, target, this.sourcePath, this).then(() => {
				// Closed or switched to another chat meanwhile: nothing to show it in.
				if (this.observer === undefined) return;
				el.removeClass("is-plain");
				el.replaceChildren(...Array.from(target.childNodes));
			});
		}
	}
}
