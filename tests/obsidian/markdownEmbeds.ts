// Embeds of notes (`![[Note]]`), filled in as Obsidian's reading view fills them: not during
// MarkdownRenderer.render, but afterwards, once the embedded note has been read, by a child of the
// render's Component (unloading the Component before then leaves the embed empty). The note is
// rendered like any Markdown, straight into the document, so whatever it holds (remote images, raw
// HTML) loads as it would in Obsidian.
import type * as O from "obsidian";
import { Component } from "./events";

/** How deep embeds inside embeds are filled, as Obsidian stops recursive embeds. */
const MAX_DEPTH = 5;

type RenderBlocks = (el: HTMLElement, markdown: string, sourcePath: string) => void;

/** Schedules the fill of every note embed under `el` (after the render returns, as in Obsidian). */
export function fillEmbedsLater(app: O.App, el: HTMLElement, sourcePath: string, component: O.Component, render: RenderBlocks, depth = 0): void {
	// A stand-in app without a vault (some tests render with one) has nothing to embed.
	if (depth >= MAX_DEPTH || !(app as Partial<O.App>).metadataCache) return;
	for (const span of Array.from(el.querySelectorAll<HTMLElement>("span.internal-embed:not(.is-loaded)"))) {
		const target = span.getAttribute("src") ?? "";
		const file = app.metadataCache.getFirstLinkpathDest(target.split("#")[0] ?? "", sourcePath);
		if (!file || file.extension !== "md") continue;
		component.addChild(new NoteEmbedChild(span, app, file, component, render, depth));
	}
}

/** What Obsidian adds to the render's Component for an embed (a MarkdownRenderChild of the span). */
class NoteEmbedChild extends Component {
	constructor(
		private readonly containerEl: HTMLElement,
		private readonly app: O.App,
		private readonly file: O.TFile,
		private readonly parent: O.Component,
		private readonly render: RenderBlocks,
		private readonly depth: number,
	) {
		super();
	}

	override onload(): void {
		// Obsidian reads the note from disk: the fill comes in a later task, never within the render.
		const read = this.app.vault.cachedRead(this.file).then((markdown) => new Promise<string>((resolve) => window.setTimeout(() => resolve(markdown), 0)));
		void read.then((markdown) => {
			if (!this.isLoaded) return;
			const span = this.containerEl;
			span.empty();
			span.addClass("markdown-embed", "inline-embed", "is-loaded");
			const content = span.createDiv({ cls: "markdown-embed-content" });
			this.render(content, markdown, this.file.path);
			fillEmbedsLater(this.app, content, this.file.path, this.parent, this.render, this.depth + 1);
		});
	}
}
