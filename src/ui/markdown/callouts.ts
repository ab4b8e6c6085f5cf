// Callouts (`> [!warning] Title`), read as Obsidian reads them: the type, a fold sign (`+` open,
// `-` folded), an optional `|metadata`, a title (the type's name when none is given) and the body.

export interface Callout {
	/** Lower case, as Obsidian's `data-callout`. */
	type: string;
	fold: "" | "+" | "-";
	metadata: string;
	title: string;
	body: string;
}

const FIRST_LINE = /^\[!([^\]|\s]+)(?:\|([^\]]*))?\]([+-]?)[ \t]*(.*)$/;

/** The callout a quote's text (its `>` taken off) opens with, if it opens with one. */
export function calloutOf(quoteText: string): Callout | undefined {
	const newline = quoteText.indexOf("\n");
	const first = newline < 0 ? quoteText : quoteText.slice(0, newline);
	const m = FIRST_LINE.exec(first.trim());
	if (!m) return undefined;
	const type = (m[1] ?? "").toLowerCase();
	const title = (m[4] ?? "").trim();
	return {
		type,
		fold: (m[3] ?? "") as Callout["fold"],
		metadata: (m[2] ?? "").trim(),
		title: title === "" ? type.charAt(0).toUpperCase() + type.slice(1) : title,
		body: newline < 0 ? "" : quoteText.slice(newline + 1),
	};
}

/** Obsidian's icon for each callout type and its aliases; anything else gets the note's. */
const ICONS: [RegExp, string][] = [
	[/^(?:abstract|summary|tldr)$/, "clipboard-list"],
	[/^info$/, "info"],
	[/^todo$/, "check-circle-2"],
	[/^(?:tip|hint|important)$/, "flame"],
	[/^(?:success|check|done)$/, "check"],
	[/^(?:question|help|faq)$/, "help-circle"],
	[/^(?:warning|caution|attention)$/, "alert-triangle"],
	[/^(?:failure|fail|missing)$/, "x"],
	[/^(?:danger|error)$/, "zap"],
	[/^bug$/, "bug"],
	[/^example$/, "list"],
	[/^(?:quote|cite)$/, "quote"],
];

export function calloutIcon(type: string): string {
	return ICONS.find(([re]) => re.test(type))?.[1] ?? "pencil";
}
