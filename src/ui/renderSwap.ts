import { Component } from "obsidian";

export interface RenderSwap {
	/** Renders into the detached element. */
	render: (target: HTMLElement, component: Component) => Promise<void>;
	/** Shown as written when the render fails; without it a failed render changes nothing. */
	fallbackText?: string;
	/** The Component the render belongs to; without one, a fresh one is made and loaded for it. */
	component?: Component;
	cls?: string;
	/** Still wanted when the render finishes (a newer render, or closing, makes it stale). */
	isCurrent: () => boolean;
	/** Puts the rendered element on screen. */
	swap: (target: HTMLElement, component: Component) => void;
}

/**
 * Renders Markdown off-screen and swaps it in once done, so a slow render never shows an empty or
 * half-built element. A render that finishes stale is dropped, its own Component unloaded.
 */
export async function renderAndSwap(job: RenderSwap): Promise<void> {
	const owned = job.component === undefined;
	const component = job.component ?? new Component();
	if (owned) component.load();
	const target = createDiv(job.cls === undefined ? undefined : { cls: job.cls });
	let rendered = true;
	try {
		await job.render(target, component);
	} catch {
		if (job.fallbackText === undefined) rendered = false;
		else target.setText(job.fallbackText);
	}
	if (!rendered || !job.isCurrent()) {
		if (owned) component.unload();
		return;
	}
	job.swap(target, component);
}
