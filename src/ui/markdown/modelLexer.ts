// Markdown from a model (answers, thinking, tool results, notes embedded in them) read into tokens by
// `marked`'s lexer: CommonMark with GitHub's tables, task lists, strikethrough and bare links, plus
// what Obsidian adds — [[links]], ![[embeds]], ==highlights==, $math$, %%comments%%. Only the
// lexer is used: the panel builds the DOM from the tokens itself (markdownDom.ts), so no HTML string
// is ever made and no other plugin's processor ever sees the result (Obsidian's MarkdownRenderer
// would hand every block to every registered code block processor and post-processor).
// marked is required on first use, not imported: its module builds its whole regex grammar when it
// runs (about 30 ms), and the plugin's load must not pay for it before anything is rendered. The
// bundle wraps a required module so that it runs on the first require (esbuild resolves the require
// at build time: main.js asks Obsidian's require for nothing, so this works on mobile too).
/* global require -- resolved by the bundler; Node's own in tests */
import type { Marked, Token, TokenizerExtension, Tokens } from "marked";

export type { Token, Tokens };

/** `[[target|alias]]` or `![[target|alias]]`. */
export interface WikiLinkToken {
	type: "wikilink";
	raw: string;
	embed: boolean;
	/** As written, with its `#heading` or `#^block`. */
	target: string;
	alias: string | undefined;
}

export interface HighlightToken {
	type: "highlight";
	raw: string;
	tokens: Token[];
}

export interface MathToken {
	type: "math";
	raw: string;
	text: string;
	display: boolean;
}

export interface CommentToken {
	type: "comment";
	raw: string;
}

const WIKILINK = /^(!?)\[\[([^[\]\n]+?)\]\]/;
const HIGHLIGHT = /^==(?=[^\s=])((?:\\.|[^\\\n])*?[^\s\\])==(?!=)/;
const INLINE_MATH = /^\$(?=[^\s$])((?:\\.|[^\\$\n])*?[^\s\\])\$(?!\d)/;
const BLOCK_MATH = /^ {0,3}\$\$([\s\S]+?)\$\$[ \t]*(?:\n+|$)/;
const INLINE_COMMENT = /^%%[\s\S]*?%%/;
/** A closed comment only: an unclosed `%%` stays text, so no answer can hide the rest of itself. */
const BLOCK_COMMENT = /^ {0,3}%%[\s\S]*?%%[ \t]*(?:\n+|$)/;

/** The first place in `src` where `marker` starts, for the inline text tokenizer to stop at. */
const startAt =
	(marker: string) =>
	(src: string): number | undefined => {
		const at = src.indexOf(marker);
		return at < 0 ? undefined : at;
	};

/** Where the first line of `src` matching `line` (anchored after a newline or at the start) begins: a block begins only there. */
const lineStartAt =
	(line: RegExp) =>
	(src: string): number | undefined => {
		const m = line.exec(src);
		if (!m) return undefined;
		return m.index + (m[0].startsWith("\n") ? 1 : 0);
	};

const wikiLink: TokenizerExtension = {
	name: "wikilink",
	level: "inline",
	start: (src) => {
		const at = src.indexOf("[[");
		if (at < 0) return undefined;
		return at > 0 && src[at - 1] === "!" ? at - 1 : at;
	},
	tokenizer(src): WikiLinkToken | undefined {
		const m = WIKILINK.exec(src);
		if (!m) return undefined;
		const inner = m[2] ?? "";
		const bar = inner.indexOf("|");
		const target = (bar < 0 ? inner : inner.slice(0, bar)).trim();
		if (target === "") return undefined;
		return { type: "wikilink", raw: m[0], embed: m[1] === "!", target, alias: bar < 0 ? undefined : inner.slice(bar + 1).trim() };
	},
};

const highlight: TokenizerExtension = {
	name: "highlight",
	level: "inline",
	start: startAt("=="),
	tokenizer(src): HighlightToken | undefined {
		const m = HIGHLIGHT.exec(src);
		if (!m) return undefined;
		return { type: "highlight", raw: m[0], tokens: this.lexer.inlineTokens(m[1] ?? "") };
	},
	childTokens: ["tokens"],
};

const inlineMath: TokenizerExtension = {
	name: "math",
	level: "inline",
	start: startAt("$"),
	tokenizer(src): MathToken | undefined {
		const block = /^\$\$([^$]+?)\$\$/.exec(src);
		if (block) return { type: "math", raw: block[0], text: (block[1] ?? "").trim(), display: true };
		const m = INLINE_MATH.exec(src);
		return m ? { type: "math", raw: m[0], text: m[1] ?? "", display: false } : undefined;
	},
};

/** An extension that is one regular expression: its match made into a token. */
function matching(name: string, level: "block" | "inline", start: (src: string) => number | undefined, re: RegExp, token: (m: RegExpExecArray) => MathToken | CommentToken): TokenizerExtension {
	return {
		name,
		level,
		start,
		tokenizer(src) {
			const m = re.exec(src);
			return m ? token(m) : undefined;
		},
	};
}

const blockMath = matching("mathBlock", "block", lineStartAt(/(?:^|\n) {0,3}\$\$/), BLOCK_MATH, (m) => ({ type: "math", raw: m[0], text: (m[1] ?? "").trim(), display: true }));
const inlineComment = matching("comment", "inline", startAt("%%"), INLINE_COMMENT, (m) => ({ type: "comment", raw: m[0] }));
const blockComment = matching("commentBlock", "block", lineStartAt(/(?:^|\n) {0,3}%%/), BLOCK_COMMENT, (m) => ({ type: "comment", raw: m[0] }));

let marked: Marked | undefined;

/** Obsidian's defaults: GitHub's extensions, and a single line break shown as one ("strict line breaks" off). Made on first use. */
function lexer(): Marked {
	if (!marked) {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load, see the import above
		const { Marked: MarkedClass } = require("marked") as typeof import("marked");
		marked = new MarkedClass({ gfm: true, breaks: true, extensions: [blockMath, blockComment, wikiLink, highlight, inlineMath, inlineComment] });
	}
	return marked;
}

/** The tokens of `markdown`, blocks with their inline tokens. */
export function lexModelMarkdown(markdown: string): Token[] {
	return lexer().lexer(markdown);
}
