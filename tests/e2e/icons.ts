// Simple line icons for screenshots: the runtime's setIcon draws empty placeholders, Obsidian draws
// Lucide icons. These shapes are drawn by hand for this test page; they only need to be recognisable.
const ICONS: Record<string, string> = {
	"messages-square": '<path d="M4 5h12v8H9l-3 3v-3H4z"/><path d="M18 9h2v8h-2v3l-3-3h-5v-2"/>',
	"square-pen": '<path d="M12 4H5v15h15v-7"/><path d="M17 3l4 4-8 8H9v-4z"/>',
	history: '<path d="M4 12a8 8 0 1 0 2.5-5.8"/><path d="M4 4v4h4"/><path d="M12 8v4l3 2"/>',
	copy: '<rect x="8" y="8" width="12" height="12" rx="2"/><path d="M16 8V5a1 1 0 0 0-1-1H5a1 1 0 0 0-1 1v10a1 1 0 0 0 1 1h3"/>',
	send: '<path d="M4 12l16-8-6 16-2-7z"/><path d="M12 13l8-9"/>',
	square: '<rect x="6" y="6" width="12" height="12" rx="1"/>',
	"file-text": '<path d="M6 3h8l4 4v14H6z"/><path d="M14 3v4h4"/><path d="M9 12h6M9 16h6"/>',
	"alert-triangle": '<path d="M12 4l9 16H3z"/><path d="M12 10v4M12 17v.5"/>',
	"corner-down-left": '<path d="M20 5v6a3 3 0 0 1-3 3H5"/><path d="M9 10l-4 4 4 4"/>',
	cpu: '<rect x="6" y="6" width="12" height="12" rx="2"/><rect x="9" y="9" width="6" height="6"/><path d="M9 2v4M15 2v4M9 18v4M15 18v4M2 9h4M2 15h4M18 9h4M18 15h4"/>',
	slash: '<path d="M16 4L8 20"/>',
	"chevron-down": '<path d="M6 9l6 6 6-6"/>',
	"text-cursor-input": '<path d="M7 8H4v8h3"/><path d="M15 8h5v8h-5"/><path d="M9 4h2v16H9M13 4h-2M13 20h-2"/>',
	quote: '<path d="M5 7h5v5l-3 5"/><path d="M14 7h5v5l-3 5"/>',
	info: '<circle cx="12" cy="12" r="9"/><path d="M12 16v-5M12 8v.5"/>',
	trash: '<path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13"/>',
	"text-select": '<path d="M4 4h2M10 4h4M18 4h2M4 20h2M10 20h4M18 20h2M4 9v6M20 9v6"/><path d="M8 10h8M8 14h5"/>',
	x: '<path d="M6 6l12 12M18 6L6 18"/>',
	"rotate-ccw": '<path d="M4 12a8 8 0 1 0 2.5-5.8L4 8"/><path d="M4 3v5h5"/>',
	wrench: '<path d="M14 6a4 4 0 0 0 5 5l-9 9a2 2 0 0 1-3-3l9-9a4 4 0 0 1-2-2z"/>',
	search: '<circle cx="11" cy="11" r="6"/><path d="M16 16l4 4"/>',
	pencil: '<path d="M16 4l4 4L9 19H5v-4z"/>',
	list: '<path d="M9 6h11M9 12h11M9 18h11"/><path d="M4 6h1M4 12h1M4 18h1"/>',
	"file-plus": '<path d="M6 3h8l4 4v14H6z"/><path d="M14 3v4h4"/><path d="M12 11v6M9 14h6"/>',
	"image-plus": '<rect x="3" y="5" width="14" height="14" rx="2"/><path d="M3 16l4-4 4 4 2-2 4 4"/><path d="M19 3v6M16 6h6"/>',
	"refresh-cw": '<path d="M20 11a8 8 0 0 0-14-5l-2 2"/><path d="M4 4v4h4"/><path d="M4 13a8 8 0 0 0 14 5l2-2"/><path d="M20 20v-4h-4"/>',
	// Branches: the arrows between versions, Delete turn, Continue (Edit uses "pencil" above).
	"chevron-left": '<path d="M15 6l-6 6 6 6"/>',
	"chevron-right": '<path d="M9 6l6 6-6 6"/>',
	"trash-2": '<path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6"/>',
	"step-forward": '<path d="M6 5l10 7-10 7z"/><path d="M19 5v14"/>',
	// The @ list's kinds: a folder, a tag, the whole vault (a note is "file-text" above).
	folder: '<path d="M3 6h6l2 2h10v11H3z"/>',
	tag: '<path d="M3 3h8l10 10-8 8L3 11z"/><path d="M7.5 7.5h.01"/>',
	library: '<path d="M5 4v16M9 4v16"/><path d="M13 5l4 15"/><path d="M3 20h18"/>',
};

/** Fills the runtime's empty icon placeholders with a drawing, as they appear. */
export function drawIcons(root: HTMLElement): void {
	const fill = (svg: SVGElement): void => {
		if (svg.childElementCount > 0) return;
		const id = svg.getAttribute("data-icon") ?? "";
		svg.setAttribute("fill", "none");
		svg.setAttribute("stroke", "currentColor");
		svg.setAttribute("stroke-width", "2");
		svg.setAttribute("stroke-linecap", "round");
		svg.setAttribute("stroke-linejoin", "round");
		const drawing = ICONS[id] ?? '<circle cx="12" cy="12" r="7"/>';
		const parsed = new DOMParser().parseFromString(`<svg xmlns="http://www.w3.org/2000/svg">${drawing}</svg>`, "image/svg+xml");
		svg.append(...Array.from(parsed.documentElement.childNodes).map((n) => document.importNode(n, true)));
	};
	const scan = (): void => root.querySelectorAll<SVGElement>("svg.svg-icon").forEach(fill);
	new MutationObserver(scan).observe(root, { childList: true, subtree: true });
	scan();
}
