// The DOM for Markdown from a model, built from marked's tokens (modelLexer.ts) with createEl and text
// nodes: no HTML string is parsed, so raw HTML in an answer shows as the text it is, and nothing
// another plugin registered runs on it. It has the classes Obsidian's reading view has (callouts,
// internal links, tags, task lists, code), so themes style it as they style notes. What needs the
// app — links into the vault, embeds, images, math, highlighting — comes from the context.
import { decodeEntities } from "./entities";
import { lexModelMarkdown, type HighlightToken, type MathToken, type Token, type Tokens, type WikiLinkToken } from "./modelLexer";
import { calloutOf, type Callout } from "./callouts";

export interface MarkdownDomContext {
	/** `[[target|alias]]`, or `[text](path)` with no scheme: a link into the vault. */
	internalLink: (target: string, text: string) => HTMLElement;
	/** `![[target|alias]]`: a note, an image, a sound or a video of the vault, or a link when it is none. */
	embed: (target: string, alias: string | undefined) => Node;
	/** `![alt](href "title")`. */
	image: (href: string, alt: string, title: string | undefined) => Node;
	/** `[text](href)` whose href has a scheme (or a bare address): the link, to which the text is added. */
	externalLink: (href: string, title: string | undefined) => HTMLElement;
	/** `$…$` and `$$…$$`. */
	math: (source: string, display: boolean) => Node;
	/** A code block's `<code>`, holding its text: highlighted if the app can. */
	highlight: (code: HTMLElement, language: string) => void;
	/** A code block's copy button. */
	copyCode: (button: HTMLElement, text: string) => void;
	/** A callout's title bar: its icon and, for a foldable callout, the fold. */
	callout: (el: HTMLElement, callout: Callout) => void;
}

/** Blocks inside blocks (quotes in lists in quotes…) deeper than this show as their text. */
const MAX_DEPTH = 48;

/** `#tag` as Obsidian reads one: after a space or the start, letters, digits, `_`, `-`, `/`, and not all digits. */
const TAG = /(^|[\s(])#([\p{L}\p{N}_/-]*[\p{L}\p{M}_/-][\p{L}\p{M}\p{N}_/-]*)/gu;

/** An address with a scheme (`https:`, `mailto:`, `obsidian:`) or protocol-relative: not a vault path. */
const HAS_SCHEME = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** Renders `markdown` into `parent` (appending). */
export function renderMarkdownDom(parent: HTMLElement, markdown: string, ctx: MarkdownDomContext): void {
	blocks(parent, lexModelMarkdown(markdown), ctx, 0);
}

function blocks(parent: HTMLElement, tokens: Token[], ctx: MarkdownDomContext, depth: number): void {
	for (const token of tokens) block(parent, token, ctx, depth);
}

function block(parent: HTMLElement, token: Token, ctx: MarkdownDomContext, depth: number): void {
	if (depth > MAX_DEPTH) {
		parent.createEl("p", { text: token.raw });
		return;
	}
	switch (token.type) {
		case "space":
		case "def":
		case "comment":
			return;
		case "paragraph":
			inline(parent.createEl("p"), (token as Tokens.Paragraph).tokens, ctx, false);
			return;
		case "heading": {
			const h = token as Tokens.Heading;
			inline(parent.createEl(`h${Math.min(6, Math.max(1, h.depth))}` as "h1"), h.tokens, ctx, false);
			return;
		}
		case "code":
			codeBlock(parent, token as Tokens.Code, ctx);
			return;
		case "blockquote":
			quote(parent, token as Tokens.Blockquote, ctx, depth);
			return;
		case "list":
			list(parent, token as Tokens.List, ctx, depth);
			return;
		case "table":
			table(parent, token as Tokens.Table, ctx);
			return;
		case "hr":
			parent.createEl("hr");
			return;
		case "math":
			parent.appendChild(ctx.math((token as MathToken).text, true));
			return;
		case "html":
			// Raw HTML is shown as the text it is.
			parent.createEl("p", { cls: "discover-markdown-source", text: token.raw.replace(/\n+$/, "") });
			return;
		case "text": {
			// A tight list item's text.
			const text = token as Tokens.Text;
			if (text.tokens) inline(parent, text.tokens, ctx, false);
			else appendText(parent, decodeEntities(text.text), false);
			return;
		}
		default:
			inline(parent, [token], ctx, false);
	}
}

function codeBlock(parent: HTMLElement, token: Tokens.Code, ctx: MarkdownDomContext): void {
	const language = (token.lang ?? "").trim().split(/\s/)[0]?.replace(/[^\w#+.-]/g, "") ?? "";
	const pre = parent.createEl("pre", { cls: language === "" ? undefined : `language-${language}` });
	const code = pre.createEl("code", { cls: language === "" ? undefined : `language-${language}`, text: token.text });
	if (language !== "") ctx.highlight(code, language);
	const copy = pre.createEl("button", { cls: "copy-code-button", attr: { type: "button" } });
	ctx.copyCode(copy, token.text);
}

function quote(parent: HTMLElement, token: Tokens.Blockquote, ctx: MarkdownDomContext, depth: number): void {
	const callout = calloutOf(token.text);
	if (!callout) {
		blocks(parent.createEl("blockquote"), token.tokens, ctx, depth + 1);
		return;
	}
	const el = parent.createDiv({ cls: "callout", attr: { "data-callout": callout.type, "data-callout-fold": callout.fold, "data-callout-metadata": callout.metadata } });
	const title = el.createDiv({ cls: "callout-title" });
	ctx.callout(title, callout);
	const inner = title.createDiv({ cls: "callout-title-inner" });
	const titleTokens = lexModelMarkdown(callout.title).find((t): t is Tokens.Paragraph => t.type === "paragraph");
	if (titleTokens) inline(inner, titleTokens.tokens, ctx, false);
	else inner.setText(callout.title);
	if (callout.body.trim() !== "") blocks(el.createDiv({ cls: "callout-content" }), lexModelMarkdown(callout.body), ctx, depth + 1);
}

function list(parent: HTMLElement, token: Tokens.List, ctx: MarkdownDomContext, depth: number): void {
	const el = token.ordered ? parent.createEl("ol") : parent.createEl("ul");
	if (token.ordered && typeof token.start === "number" && token.start !== 1) el.setAttribute("start", String(token.start));
	if (token.items.some((item) => item.task)) el.addClass("contains-task-list");
	for (const item of token.items) {
		const li = el.createEl("li");
		if (item.task) {
			li.addClass("task-list-item");
			li.setAttribute("data-task", item.checked === true ? "x" : " ");
			if (item.checked === true) li.addClass("is-checked");
		}
		blocks(li, item.tokens, ctx, depth + 1);
	}
}

function table(parent: HTMLElement, token: Tokens.Table, ctx: MarkdownDomContext): void {
	const el = parent.createEl("table");
	const cell = (row: HTMLElement, tag: "th" | "td", c: Tokens.TableCell): void => {
		const td = row.createEl(tag, { cls: c.align ? `is-align-${c.align}` : undefined });
		inline(td, c.tokens, ctx, false);
	};
	const head = el.createEl("thead").createEl("tr");
	for (const c of token.header) cell(head, "th", c);
	if (token.rows.length === 0) return;
	const body = el.createEl("tbody");
	for (const row of token.rows) {
		const tr = body.createEl("tr");
		for (const c of row) cell(tr, "td", c);
	}
}

/** Raw HTML tags that only format text, honoured when written bare (no attributes) and closed in the same run. */
const FORMAT_TAG = /^<(sub|sup|kbd|u|ins|mark|s|small|b|i|em|strong|del)>$/i;

function inline(parent: HTMLElement, tokens: Token[] | undefined, ctx: MarkdownDomContext, inLink: boolean): void {
	const list = tokens ?? [];
	for (let i = 0; i < list.length; i++) {
		const token = list[i]!;
		const tag = token.type === "html" ? FORMAT_TAG.exec(token.raw.trim())?.[1]?.toLowerCase() : undefined;
		const close = tag === undefined ? -1 : closingTag(list, i, tag);
		if (tag === undefined || close < 0) {
			inlineToken(parent, token, ctx, inLink);
			continue;
		}
		inline(parent.createEl(tag as "b"), list.slice(i + 1, close), ctx, inLink);
		i = close;
	}
}

/** Where the `</tag>` closing list[open] is, counting nested ones; -1 when it is not closed. */
function closingTag(list: Token[], open: number, tag: string): number {
	let depth = 0;
	for (let j = open + 1; j < list.length; j++) {
		const token = list[j]!;
		if (token.type !== "html") continue;
		const raw = token.raw.trim().toLowerCase();
		if (raw === `<${tag}>`) depth++;
		else if (raw === `</${tag}>`) {
			if (depth === 0) return j;
			depth--;
		}
	}
	return -1;
}

function inlineToken(parent: HTMLElement, token: Token, ctx: MarkdownDomContext, inLink: boolean): void {
	switch (token.type) {
		case "text": {
			const text = token as Tokens.Text;
			if (text.tokens) inline(parent, text.tokens, ctx, inLink);
			else appendText(parent, decodeEntities(text.text), inLink);
			return;
		}
		case "escape":
			parent.appendText(decodeEntities((token as Tokens.Escape).text));
			return;
		case "strong":
			inline(parent.createEl("strong"), (token as Tokens.Strong).tokens, ctx, inLink);
			return;
		case "em":
			inline(parent.createEl("em"), (token as Tokens.Em).tokens, ctx, inLink);
			return;
		case "del":
			inline(parent.createEl("del"), (token as Tokens.Del).tokens, ctx, inLink);
			return;
		case "highlight":
			inline(parent.createEl("mark"), (token as HighlightToken).tokens, ctx, inLink);
			return;
		case "codespan":
			// Code is shown as written: no references read.
			parent.createEl("code", { text: (token as Tokens.Codespan).text });
			return;
		case "br":
			parent.createEl("br");
			return;
		case "link":
			link(parent, token as Tokens.Link, ctx, inLink);
			return;
		case "image": {
			const image = token as Tokens.Image;
			parent.appendChild(ctx.image(decodeEntities(image.href), decodeEntities(image.text), image.title ? decodeEntities(image.title) : undefined));
			return;
		}
		case "wikilink": {
			const w = token as WikiLinkToken;
			if (w.embed) parent.appendChild(ctx.embed(w.target, w.alias));
			else if (inLink) parent.appendText(w.alias ?? w.target);
			else parent.appendChild(ctx.internalLink(w.target, w.alias ?? w.target));
			return;
		}
		case "math":
			parent.appendChild(ctx.math((token as MathToken).text, (token as MathToken).display));
			return;
		case "checkbox":
			parent.createEl("input", { cls: "task-list-item-checkbox", type: "checkbox", attr: { disabled: "" } }).checked = (token as Tokens.Checkbox).checked;
			return;
		case "comment":
			return;
		case "html":
			// Raw HTML is text, but for a line break.
			if (/^<br\s*\/?>$/i.test(token.raw.trim())) parent.createEl("br");
			else parent.appendText(token.raw);
			return;
		default:
			parent.appendText(token.raw);
	}
}

function link(parent: HTMLElement, token: Tokens.Link, ctx: MarkdownDomContext, inLink: boolean): void {
	const href = token.autolink ? token.href : decodeEntities(token.href);
	// A link inside a link is its text (the outer link wins, as in HTML).
	if (inLink) {
		inline(parent, token.tokens, ctx, true);
		return;
	}
	const title = token.title ? decodeEntities(token.title) : undefined;
	let el: HTMLElement;
	if (HAS_SCHEME.test(href.trim())) el = ctx.externalLink(href.trim(), title);
	else {
		let target = href.trim();
		try {
			target = decodeURIComponent(target);
		} catch {
			// As written, when it is not valid percent-encoding.
		}
		el = ctx.internalLink(target, "");
		if (title) el.setAttribute("title", title);
	}
	parent.appendChild(el);
	inline(el, token.tokens, ctx, true);
}

/** Text, with `#tags` as Obsidian shows them (outside links). */
function appendText(parent: HTMLElement, text: string, inLink: boolean): void {
	if (inLink || !text.includes("#")) {
		parent.appendText(text);
		return;
	}
	let pos = 0;
	for (const m of text.matchAll(TAG)) {
		const start = m.index + (m[1] ?? "").length;
		parent.appendText(text.slice(pos, start));
		const tag = `#${m[2] ?? ""}`;
		parent.createEl("a", { cls: "tag", text: tag, href: tag, attr: { target: "_blank", rel: "noopener nofollow" } });
		pos = start + tag.length;
	}
	parent.appendText(text.slice(pos));
}
