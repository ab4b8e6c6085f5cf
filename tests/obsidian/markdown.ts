// MarkdownRenderer: a faithful-enough subset of Obsidian's reading view, rendered to real DOM.
import type * as O from "obsidian";
import { Component } from "./events";
import { appendHtml, takeDefinitions } from "./markdownHtml";
import { renderInline } from "./markdownInline";
import { fillEmbedsLater } from "./markdownEmbeds";
import { postProcess } from "./markdownProcessors";

export class MarkdownRenderChild extends Component {
	constructor(public containerEl: HTMLElement) {
		super();
	}
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;

/** The start of an HTML block: a tag at the start of a line; it runs to the next blank line. */
const HTML_BLOCK = /^ {0,3}<\/?[A-Za-z]/;

const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

function cells(line: string): string[] {
	return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

/** A GFM table: a header row, a rule row, then body rows while lines contain "|". */
function renderTable(parent: HTMLElement, lines: string[], sourcePath: string): void {
	const [header, , ...body] = lines;
	const table = parent.createEl("table");
	const headRow = table.createEl("thead").createEl("tr");
	for (const c of cells(header ?? "")) renderInline(headRow.createEl("th"), c, sourcePath);
	const tbody = table.createEl("tbody");
	for (const line of body) {
		const tr = tbody.createEl("tr");
		for (const c of cells(line)) renderInline(tr.createEl("td"), c, sourcePath);
	}
}

interface ListLine {
	indent: number;
	ordered: boolean;
	text: string;
}

function renderList(parent: HTMLElement, items: ListLine[], sourcePath: string): void {
	const first = items[0];
	if (!first) return;
	const list = parent.createEl(first.ordered ? "ol" : "ul");
	let current: HTMLLIElement | null = null;
	let nested: ListLine[] = [];
	const flush = (): void => {
		if (current && nested.length) renderList(current, nested, sourcePath);
		nested = [];
	};
	for (const item of items) {
		if (item.indent > first.indent && current) {
			nested.push(item);
			continue;
		}
		flush();
		current = list.createEl("li");
		const task = /^\[([ xX])\]\s+(.*)$/.exec(item.text);
		if (task) {
			current.addClass("task-list-item");
			current.createEl("input", { type: "checkbox", cls: "task-list-item-checkbox" }).checked = task[1] !== " ";
			renderInline(current, task[2] ?? "", sourcePath);
		} else renderInline(current, item.text, sourcePath);
	}
	flush();
}

function renderCode(parent: HTMLElement, lang: string, code: string): void {
	const pre = parent.createEl("pre", lang ? `language-${lang}` : undefined);
	pre.createEl("code", { cls: lang ? `language-${lang}` : [], text: code });
	// Obsidian adds a copy button to every code block.
	pre.createEl("button", { cls: "copy-code-button", attr: { "aria-label": "Copy" } });
}

/** Renders block-level Markdown into `el`, appending as Obsidian does. */
export function renderMarkdownBlocks(el: HTMLElement, markdown: string, sourcePath: string): void {
	const lines = takeDefinitions(markdown.replace(/\r\n?/g, "\n").split("\n"));
	let i = 0;
	while (i < lines.length) {
		const line = lines[i] ?? "";
		const fence = FENCE.exec(line);
		if (fence) {
			const marker = fence[1] ?? "```";
			const body: string[] = [];
			i++;
			// An unclosed fence runs to the end, as while an answer is still streaming.
			while (i < lines.length && !(lines[i] ?? "").trimStart().startsWith(marker)) body.push(lines[i++] ?? "");
			i++;
			renderCode(el, fence[2] ?? "", body.join("\n"));
			continue;
		}
		if (!line.trim()) {
			i++;
			continue;
		}
		if (HTML_BLOCK.test(line)) {
			const html: string[] = [];
			while (i < lines.length && (lines[i] ?? "").trim()) html.push(lines[i++] ?? "");
			appendHtml(el, html.join("\n"));
			continue;
		}
		const heading = HEADING.exec(line);
		if (heading) {
			const level = (heading[1] ?? "#").length as 1 | 2 | 3 | 4 | 5 | 6;
			renderInline(el.createEl(`h${level}`), heading[2] ?? "", sourcePath);
			i++;
			continue;
		}
		if (line.includes("|") && TABLE_RULE.test(lines[i + 1] ?? "")) {
			const rows = [line, lines[i + 1] ?? ""];
			i += 2;
			while (i < lines.length && (lines[i] ?? "").includes("|") && (lines[i] ?? "").trim()) rows.push(lines[i++] ?? "");
			renderTable(el, rows, sourcePath);
			continue;
		}
		if (RULE.test(line)) {
			el.createEl("hr");
			i++;
			continue;
		}
		if (QUOTE.test(line)) {
			const body: string[] = [];
			while (i < lines.length && QUOTE.test(lines[i] ?? "")) body.push(QUOTE.exec(lines[i++] ?? "")?.[1] ?? "");
			renderMarkdownBlocks(el.createEl("blockquote"), body.join("\n"), sourcePath);
			continue;
		}
		if (LIST_ITEM.test(line)) {
			const items: ListLine[] = [];
			while (i < lines.length) {
				const m = LIST_ITEM.exec(lines[i] ?? "");
				if (!m) break;
				items.push({ indent: (m[1] ?? "").replace(/\t/g, "    ").length, ordered: /\d/.test(m[2] ?? ""), text: m[3] ?? "" });
				i++;
			}
			renderList(el, items, sourcePath);
			continue;
		}
		const para: string[] = [];
		while (i < lines.length) {
			const l = lines[i] ?? "";
			if (!l.trim() || FENCE.test(l) || HEADING.test(l) || QUOTE.test(l) || LIST_ITEM.test(l) || RULE.test(l)) break;
			para.push(l);
			i++;
		}
		const p = el.createEl("p");
		// Obsidian's default (strict line breaks off): a single newline is a line break.
		para.forEach((text, n) => {
			if (n > 0) p.createEl("br");
			renderInline(p, text, sourcePath);
		});
	}
}

export abstract class MarkdownRenderer extends MarkdownRenderChild {
	static async render(this: void, app: O.App, markdown: string, el: HTMLElement, sourcePath: string, component: O.Component): Promise<void> {
		renderMarkdownBlocks(el, markdown, sourcePath);
		// Every plugin's code block processors and post-processors run on what was rendered.
		await postProcess(el, sourcePath, component as Component);
		// Embedded notes are filled in after the render, once read (markdownEmbeds.ts).
		fillEmbedsLater(app, el, sourcePath, component, renderMarkdownBlocks);
	}

	static async renderMarkdown(this: void, markdown: string, el: HTMLElement, sourcePath: string, component: O.Component): Promise<void> {
		renderMarkdownBlocks(el, markdown, sourcePath);
		await postProcess(el, sourcePath, component as Component);
	}
}
