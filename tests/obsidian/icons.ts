// Icons: a placeholder SVG per id, enough to find and click; Obsidian ships Lucide icons.
import type { IconName } from "obsidian";

const custom = new Map<string, string>();

export function addIcon(iconId: string, svgContent: string): void {
	custom.set(iconId, svgContent);
}

/** Forgets the icons added with addIcon (a test file starts with Obsidian's own only). Not Obsidian API. */
export function clearAddedIcons(): void {
	custom.clear();
}

export function getIcon(iconId: string): SVGSVGElement | null {
	if (!iconId) return null;
	const name = iconId.startsWith("lucide-") ? iconId : `lucide-${iconId}`;
	return createSvg("svg", { cls: ["svg-icon", name], attr: { viewBox: "0 0 24 24", "data-icon": iconId } });
}

export function getIconIds(): IconName[] {
	return [...custom.keys()];
}

/** Replaces `parent`'s content with the icon, as Obsidian does. */
export function setIcon(parent: HTMLElement, iconId: IconName): void {
	parent.empty();
	const svg = getIcon(iconId);
	if (svg) parent.appendChild(svg);
}

export function setTooltip(el: HTMLElement, tooltip: string): void {
	el.setAttr("aria-label", tooltip || null);
}
