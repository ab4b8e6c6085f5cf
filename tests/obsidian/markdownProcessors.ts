// What other plugins register on the reading view: code block processors
// (`registerMarkdownCodeBlockProcessor`: Dataview's `dataview`/`dataviewjs`, Tasks' `tasks`, …) and
// post-processors (`registerMarkdownPostProcessor`). As in Obsidian, the registry is global (one
// MarkdownPreviewRenderer for the whole app), every `MarkdownRenderer.render` runs every
// post-processor on what it rendered, sorted by sortOrder, and a code block processor is itself a
// post-processor: it finds `pre > code.language-<lang>` in what was rendered, swaps the block for a
// `div.block-language-<lang>` and hands the handler the code's text. So any `language-<lang>` class a
// render produces — a fence, or raw HTML — is enough for the handler to run.
import type * as O from "obsidian";
import type { Component } from "./events";

interface Registered {
	processor: O.MarkdownPostProcessor;
	sortOrder: number;
}

const registered: Registered[] = [];

/** Adds a post-processor for every render from now on; returns how to remove it (a plugin's unload). */
export function registerPostProcessor(processor: O.MarkdownPostProcessor, sortOrder = 0): () => void {
	const entry = { processor, sortOrder };
	registered.push(entry);
	return () => {
		const at = registered.indexOf(entry);
		if (at >= 0) registered.splice(at, 1);
	};
}

/** Forgets every post-processor (a test file starts with none, as a new app does). Not Obsidian API. */
export function clearPostProcessors(): void {
	registered.splice(0);
}

/** Obsidian's MarkdownPreviewRenderer.createCodeBlockPostProcessor. */
export function codeBlockPostProcessor(language: string, handler: (source: string, el: HTMLElement, ctx: O.MarkdownPostProcessorContext) => Promise<unknown> | void): O.MarkdownPostProcessor {
	return (el, ctx) => {
		const found = Array.from(el.querySelectorAll<HTMLElement>("pre > code")).filter((code) => code.classList.contains(`language-${language}`));
		const done: Promise<unknown>[] = [];
		for (const code of found) {
			const pre = code.parentElement;
			if (!pre) continue;
			const block = createDiv({ cls: `block-language-${language}` });
			pre.replaceWith(block);
			const result = handler(code.textContent ?? "", block, ctx);
			if (result instanceof Promise) done.push(result);
		}
		return done.length > 0 ? Promise.all(done) : undefined;
	};
}

/** Runs every registered post-processor on `el`, as Obsidian does after rendering each section. */
export async function postProcess(el: HTMLElement, sourcePath: string, component: Component): Promise<void> {
	const ctx: O.MarkdownPostProcessorContext = {
		docId: "",
		sourcePath,
		frontmatter: null,
		addChild: (child) => void component.addChild(child),
		getSectionInfo: () => null,
	};
	for (const { processor } of [...registered].sort((a, b) => a.sortOrder - b.sortOrder)) {
		// A processor that throws spoils its own output only, as in Obsidian.
		try {
			await processor(el, ctx);
		} catch {
			// Left as rendered.
		}
	}
}
