// Obsidian's own renderers that plugins may call: `loadPrism` (the Prism Obsidian ships, here the
// `prismjs` package with the languages loaded below) and MathJax's `renderMath`/`finishRenderMath`
// (here an `mjx-container` holding the source, the element shape Obsidian returns, without MathJax).

type Prism = (typeof import("prismjs"))["default"];

let prism: Promise<Prism> | undefined;

/** Prism, loaded once, as Obsidian's `loadPrism` does; `window.Prism` is set as in Obsidian. */
export function loadPrism(): Promise<Prism> {
	prism ??= (async () => {
		const g = globalThis as { Prism?: unknown };
		// As in Obsidian: no automatic highlighting of the page when Prism loads.
		g.Prism ??= { manual: true, disableWorkerMessageHandler: true };
		const core = (await import("prismjs")).default;
		g.Prism = core;
		await import("prismjs/components/prism-typescript");
		await import("prismjs/components/prism-python");
		await import("prismjs/components/prism-json");
		await import("prismjs/components/prism-bash");
		return core;
	})();
	return prism;
}

/** MathJax's element for `source`: inline, or a display block. */
export function renderMath(source: string, display: boolean): HTMLElement {
	const el = document.createElement("mjx-container");
	el.className = "MathJax";
	el.setAttribute("jax", "CHTML");
	if (display) el.setAttribute("display", "true");
	el.textContent = source;
	return el;
}

/** Adds MathJax's style sheet for what was rendered; nothing to add here. */
export function finishRenderMath(): Promise<void> {
	return Promise.resolve();
}

/**
 * Obsidian's `loadPdfJs()`: the pdf.js it ships. The runtime has none (no PDF library among the
 * test dependencies): it rejects, and tests hand PanelSources a PDF opener of their own.
 */
export function loadPdfJs(): Promise<unknown> {
	return Promise.reject(new Error("The test runtime ships no pdf.js: give the code under test a PDF opener."));
}
