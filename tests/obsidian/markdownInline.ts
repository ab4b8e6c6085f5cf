// Inline Markdown: code, emphasis, links, [[wikilinks]], embeds, images and raw HTML tags, built as
// DOM nodes (never innerHTML).
import { appendHtml, definition, renderImage } from "./markdownHtml";

type Rule = { re: RegExp; render: (parent: HTMLElement, m: RegExpExecArray, sourcePath: string) => void };

function internalLink(parent: HTMLElement, target: string, text: string): void {
	parent.createEl("a", { cls: "internal-link", text, href: target, attr: { "data-href": target, target: "_blank", rel: "noopener nofollow" } });
}

const RULES: Rule[] = [
	{ re: /`([^`]+)`/, render: (p, m) => void p.createEl("code", { text: m[1] ?? "" }) },
	{
		re: /!\[\[([^\]|]+)(?:\|([^\]]*))?\]\]/,
		render: (p, m) => void p.createSpan({ cls: "internal-embed", attr: { src: m[1] ?? "", alt: m[2] ?? null }, text: m[2] ?? m[1] ?? "" }),
	},
	{
		re: /\[\[([^\]|]+)(?:\|([^\]]*))?\]\]/,
		render: (p, m) => internalLink(p, (m[1] ?? "").trim(), (m[2] ?? m[1] ?? "").trim()),
	},
	{
		re: /!\[([^\]]*)\]\((<[^>\n]*>|[^)\s]+)(?:\s+"[^"]*")?\)/,
		render: (p, m) => renderImage(p, m[1] ?? "", m[2] ?? ""),
	},
	{
		// Reference images: `![alt][ref]`, `![alt][]`, `![alt]` with a `[ref]: url` definition.
		re: /!\[([^\]]*)\](?:\[([^\]]*)\])?/,
		render: (p, m) => {
			const dest = definition(m[2] || m[1] || "");
			if (dest === undefined) p.appendText(m[0]);
			else renderImage(p, m[1] ?? "", dest);
		},
	},
	{
		// Raw inline HTML: one tag at a time, as the browser parses it.
		re: /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s(?:[^>"']|"[^"]*"|'[^']*')*)?\/?>/,
		render: (p, m) => appendHtml(p, m[0]),
	},
	{
		// Link text may hold one level of brackets: a link-wrapped image `[![alt](img)](url)`.
		re: /\[((?:[^[\]]|\[[^\]]*\]\([^)]*\))*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/,
		render: (p, m, sourcePath) => {
			const href = m[2] ?? "";
			if (/^[a-z][a-z0-9+.-]*:/i.test(href)) {
				const a = p.createEl("a", { cls: "external-link", href, attr: { target: "_blank", rel: "noopener nofollow" } });
				renderInline(a, m[1] ?? "", sourcePath);
			} else internalLink(p, decodeURI(href), m[1] ?? "");
		},
	},
	{
		re: /https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"]/,
		render: (p, m) => void p.createEl("a", { cls: "external-link", href: m[0], text: m[0], attr: { target: "_blank", rel: "noopener nofollow" } }),
	},
	{ re: /(\*\*|(?<!\w)__)(?=\S)([\s\S]*?\S)\1/, render: (p, m, s) => renderInline(p.createEl("strong"), m[2] ?? "", s) },
	// Underscores inside words (snake_case) are not emphasis.
	{ re: /(\*|(?<!\w)_)(?=\S)([\s\S]*?\S)\1(?!\w)/, render: (p, m, s) => renderInline(p.createEl("em"), m[2] ?? "", s) },
	{ re: /~~(?=\S)([\s\S]*?\S)~~/, render: (p, m, s) => renderInline(p.createEl("del"), m[1] ?? "", s) },
	{ re: /==(?=\S)([\s\S]*?\S)==/, render: (p, m, s) => renderInline(p.createEl("mark"), m[1] ?? "", s) },
];

/** Appends `text` to `parent`, turning inline Markdown into elements; the earliest match wins. */
export function renderInline(parent: HTMLElement, text: string, sourcePath: string): void {
	let rest = text;
	while (rest) {
		let best: { rule: Rule; m: RegExpExecArray } | null = null;
		for (const rule of RULES) {
			const m = rule.re.exec(rest);
			if (m && (!best || m.index < best.m.index)) best = { rule, m };
		}
		if (!best) {
			parent.appendText(rest);
			return;
		}
		if (best.m.index > 0) parent.appendText(rest.slice(0, best.m.index));
		best.rule.render(parent, best.m, sourcePath);
		rest = rest.slice(best.m.index + best.m[0].length);
	}
}
