// Syntax highlighting for code blocks in model output, with the Prism Obsidian ships (`loadPrism`).
// Only Prism's tokenizer is used: the panel builds the spans itself, so Prism's hooks — which other
// plugins can add to — never run on model output, and no HTML string is parsed.

/** The part of Prism used here. */
export interface PrismLike {
	languages: Record<string, unknown>;
	tokenize(text: string, grammar: unknown): PrismStream;
}

type PrismStream = (string | PrismToken)[];

interface PrismToken {
	type: string;
	content: string | PrismToken | PrismStream;
	alias?: string | string[];
}

/** Longer code shows unhighlighted: tokenizing it could hold the main thread. */
export const MAX_HIGHLIGHTED_CHARS = 100_000;

/** Classes a token may put on a span: Prism's names are words; anything else is dropped. */
const CLASS_NAME = /^[\w-]{1,64}$/;

/** Fills `code` (holding its text) with Prism's token spans for `language`; leaves it as text when Prism has no such grammar. */
export function highlightCode(code: HTMLElement, language: string, prism: PrismLike): void {
	const text = code.textContent ?? "";
	const grammar = prism.languages[language.toLowerCase()];
	if (!grammar || typeof grammar !== "object" || text.length > MAX_HIGHLIGHTED_CHARS) return;
	let stream: PrismStream;
	try {
		stream = prism.tokenize(text, grammar);
	} catch {
		return;
	}
	const fragment = createFragment();
	append(fragment, stream, 0);
	// Only if the spans hold exactly the code: what shows is always what the model wrote.
	if (fragment.textContent !== text) return;
	code.replaceChildren(fragment);
	code.addClass("is-loaded");
}

function append(parent: DocumentFragment | HTMLElement, content: string | PrismToken | PrismStream, depth: number): void {
	if (typeof content === "string") {
		parent.appendText(content);
		return;
	}
	if (Array.isArray(content)) {
		for (const part of content) append(parent, part, depth);
		return;
	}
	const aliases = content.alias === undefined ? [] : Array.isArray(content.alias) ? content.alias : [content.alias];
	const classes = ["token", content.type, ...aliases].filter((c) => CLASS_NAME.test(c));
	// Grammars nest a few levels; deeper is flattened to text.
	if (depth > 32) parent.appendText(textOf(content.content));
	else append(parent.createSpan({ cls: classes }), content.content, depth + 1);
}

function textOf(content: string | PrismToken | PrismStream): string {
	if (typeof content === "string") return content;
	if (Array.isArray(content)) return content.map(textOf).join("");
	return textOf(content.content);
}
