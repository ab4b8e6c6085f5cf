// Where Markdown text is fenced code, as far as every parser agrees: such text is shown as code and
// never rendered, so nothing in it can load. Diagram (`mermaid`) blocks are found too: they are
// rendered, with HTML labels and CSS.

/** Any line that looks like a fence, in a container or not. */
const FENCE_LIKE = /^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*(`{3,}|~{3,})(.*)$/;
/** A line that may start an HTML block (also inside a quote or a list item). */
const HTML_BLOCK_LINE = /^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*<[A-Za-z/!?]/;
/** HTML blocks that run past blank lines, to their own end marker. */
const RAW_BLOCK = /^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*(?:<(pre|script|style|textarea)(?=[\s>]|$)|(<!--)|(<\?)|(<!\[CDATA\[)|(<![A-Za-z]))/i;

export interface CodeRegions {
	/** Fenced code to leave alone: every parser reads it as code. */
	skip: [number, number][];
	/** Diagrams: rendered, and CSS inside them can load images. */
	mermaid: [number, number][];
}

function rawBlockCloser(line: string): RegExp | undefined {
	const m = RAW_BLOCK.exec(line);
	if (!m) return undefined;
	const closer = m[1] ? new RegExp(`</${m[1]}>`, "i") : m[2] ? /-->/ : m[3] ? /\?>/ : m[4] ? /\]\]>/ : />/;
	return closer.test(line.slice(m[0].length)) ? undefined : closer;
}

/**
 * The fenced code blocks, when the text's fences are unambiguous: every fence line unindented and
 * outside any container, each closed by its own marker, none where an HTML block may be open.
 * Parsers differ on the other cases, so then nothing is skipped (undefined) and all text is checked.
 */
export function codeRegions(md: string): CodeRegions | undefined {
	const regions: CodeRegions = { skip: [], mermaid: [] };
	let open: { char: string; length: number; start: number; mermaid: boolean } | undefined;
	let htmlInParagraph = false;
	let rawCloser: RegExp | undefined;
	let pos = 0;
	while (pos <= md.length) {
		const nl = md.indexOf("\n", pos);
		const end = nl < 0 ? md.length : nl;
		const line = md.slice(pos, end);
		const fence = FENCE_LIKE.exec(line);
		if (open) {
			if (fence) {
				const marker = fence[1] ?? "";
				if (!line.startsWith(marker) || marker[0] !== open.char || marker.length < open.length || (fence[2] ?? "").trim() !== "") return undefined;
				(open.mermaid ? regions.mermaid : regions.skip).push([open.start, end]);
				open = undefined;
				htmlInParagraph = false;
			}
		} else if (fence) {
			const marker = fence[1] ?? "";
			const info = (fence[2] ?? "").trim();
			if (!line.startsWith(marker) || rawCloser || htmlInParagraph || (marker[0] === "`" && info.includes("`"))) return undefined;
			open = { char: marker[0] ?? "`", length: marker.length, start: pos, mermaid: /^mermaid\b/i.test(info) };
		} else {
			if (rawCloser?.test(line)) rawCloser = undefined;
			else if (!rawCloser) rawCloser = rawBlockCloser(line);
			if (line.trim() === "") htmlInParagraph = false;
			else if (HTML_BLOCK_LINE.test(line)) htmlInParagraph = true;
		}
		if (nl < 0) break;
		pos = nl + 1;
	}
	if (open) (open.mermaid ? regions.mermaid : regions.skip).push([open.start, md.length]);
	return regions;
}
