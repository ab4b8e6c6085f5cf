/**
 * A snippet of Markdown as the words a person reads: `**red**` → `red`, `[a link](url)` → `a link`,
 * `[[Note|alias]]` → `alias`. For one-line previews (history search hits, chat previews), where the
 * syntax is noise. Snippets are cut out of longer text, so a marker left without its partner is
 * dropped too. Text only: the result is set as text, never parsed as HTML.
 */
export function plainSnippet(markdown: string): string {
	return (
		markdown
			// Fenced code markers and their language; the code itself stays.
			.replace(/(^|\n)\s*(```|~~~)[^\n]*/g, "$1")
			// Images keep their description, links their text, wikilinks their alias or name.
			.replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
			.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
			.replace(/!?\[\[([^\]|]*)\|([^\]]*)\]\]/g, "$2")
			.replace(/!?\[\[([^\]]*)\]\]/g, "$1")
			// Block markers at the start of a line: headings, quotes and callouts, list items, tasks.
			.replace(/(^|\n)[ \t]*(?:#{1,6}[ \t]+|>[ \t]?(?:\[![^\]]*\][+-]?[ \t]*)?|[-*+][ \t]+(?:\[[ xX]\][ \t]+)?|\d+[.)][ \t]+(?:\[[ xX]\][ \t]+)?)/g, "$1")
			// Emphasis, strike-through, highlight and inline code, paired or left dangling by the cut.
			.replace(/(\*\*|__|~~|==)(?=\S)([^\n]*?\S)\1/g, "$2")
			.replace(/(^|[^\w*])[*_](?=\S)([^*_\n]*?\S)[*_](?=[^\w*]|$)/g, "$1$2")
			.replace(/\*\*|~~|`+/g, "")
			.replace(/\s+/g, " ")
			.trim()
	);
}
