// @vitest-environment happy-dom
// No other plugin's code runs on model output. Obsidian's MarkdownRenderer.render runs
// every code block processor (Dataview's `dataview` and `dataviewjs`, Tasks' `tasks`) and every
// post-processor that any plugin registered; the test runtime does the same (markdownProcessors.ts).
// A fake plugin registers all of them; the panel then shows an answer, thinking, a tool result, a
// history transcript and a history snippet, each holding such blocks and Dataview inline queries
// (`= …`, `$= …`). Neither a code block processor nor a post-processor may run: Discover renders
// model output itself (src/ui/markdown/), never through MarkdownRenderer.
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { Component, Plugin } from "obsidian";
import type { MarkdownPostProcessorContext } from "obsidian";
import { asObsidianApp, flush, loadPlugin, pressKey, typeInto } from "../obsidian/harness";
import { mountView, type Mounted } from "./mountView";
import { ToolCardView } from "../../src/ui/panel/tools/ToolCardView";
import { HistoryTranscript } from "../../src/ui/history/HistoryTranscript";
import { plainSnippet } from "../../src/ui/history/plainSnippet";
import { appendHighlighted } from "../../src/ui/history/highlight";
import { renderUntrustedMarkdown } from "../../src/ui/safeMarkdown";
import type { ChatMessage } from "../../src/core/types";

/** What the fake plugin's processors saw: each call, by name. */
const calls: string[] = [];

class QueryPlugin extends Plugin {
	override onload(): void {
		for (const lang of ["dataviewjs", "dataview", "tasks"]) {
			this.registerMarkdownCodeBlockProcessor(lang, (source: string, el: HTMLElement) => {
				calls.push(`${lang}: ${source}`);
				el.setText("RAN");
			});
		}
		// Dataview's inline queries: a post-processor reading inline code that starts with `=` or `$=`.
		this.registerMarkdownPostProcessor((el: HTMLElement, _ctx: MarkdownPostProcessorContext) => {
			calls.push("post-processor");
			for (const code of Array.from(el.querySelectorAll("code"))) {
				const text = code.textContent ?? "";
				if (text.startsWith("=") || text.startsWith("$=")) calls.push(`inline query: ${text}`);
			}
		});
	}
}

const HOSTILE = [
	"Here is a query:",
	"",
	"```dataviewjs",
	'dv.paragraph(require("fs").readFileSync("/etc/passwd", "utf8"))',
	"```",
	"",
	"```dataview",
	"TABLE file.name FROM \"Private\"",
	"```",
	"",
	"~~~tasks",
	"not done",
	"~~~",
	"",
	"And inline: `$= dv.current().file.name` and `= this.file.name`, and `plain code`.",
].join("\n");

let mounted: Mounted | undefined;
afterEach(async () => {
	mounted?.leaf.detach();
	await flush();
	document.body.empty();
	mounted = undefined;
	calls.length = 0;
});

async function settle(): Promise<void> {
	for (let i = 0; i < 10; i++) await flush();
}

const message = (role: ChatMessage["role"], content: string, id: string): ChatMessage => ({ id, role, content, createdAt: "2026-01-01T00:00:00.000Z" });

/** What the person sees of the hostile text, wherever it is shown: each block as code, as written. */
function expectShownAsCode(el: HTMLElement): void {
	const codes = Array.from(el.querySelectorAll("pre > code")).map((c) => c.textContent ?? "");
	expect(codes).toContain('dv.paragraph(require("fs").readFileSync("/etc/passwd", "utf8"))');
	expect(codes).toContain('TABLE file.name FROM "Private"');
	expect(codes).toContain("not done");
	expect(el.querySelector("pre > code.language-dataviewjs, pre > code.language-js")).not.toBeNull();
	expect(el.textContent).toContain("$= dv.current().file.name");
	expect(el.textContent).toContain("= this.file.name");
	expect(el.textContent).not.toContain("RAN");
}

describe("other plugins' processors on model output", () => {
	it("the test runtime runs them on an ordinary render, as Obsidian does", async () => {
		const { app } = await loadPlugin(QueryPlugin);
		const el = createDiv();
		const component = new Component();
		component.load();
		const { MarkdownRenderer } = await import("obsidian");
		await MarkdownRenderer.render(asObsidianApp(app), HOSTILE, el, "", component);
		expect(calls).toContain('dataviewjs: dv.paragraph(require("fs").readFileSync("/etc/passwd", "utf8"))');
		expect(calls).toContain('dataview: TABLE file.name FROM "Private"');
		expect(calls).toContain("tasks: not done");
		expect(calls).toContain("inline query: $= dv.current().file.name");
		expect(el.textContent).toContain("RAN");
	});

	it("an answer and its thinking: no code block processor or post-processor runs; every block shows as code", async () => {
		const m = (mounted = await mountView());
		await loadPlugin(QueryPlugin, { app: m.app });
		typeInto(m.input(), "Show me a query");
		pressKey(m.input(), "Enter");
		await flush();
		m.chat.think(HOSTILE);
		m.chat.token(HOSTILE);
		m.frames.frame();
		m.chat.finish();
		await settle();
		const answer = m.messages().at(-1)!;
		expectShownAsCode(answer.querySelector<HTMLElement>(".discover-chat-message-body > .discover-chat-message-markdown")!);
		expect(answer.querySelector(".discover-chat-thinking-body")?.textContent).toContain("```dataviewjs");
		expect(calls).toEqual([]);
	});

	it("a tool result, a history transcript and a history snippet: none of them runs either", async () => {
		const { app } = await loadPlugin(QueryPlugin);
		// Tool result (shown as text in its card).
		const cards = document.body.createDiv();
		new ToolCardView(cards, { id: "c1", index: 0, round: 0, name: "read_note", state: "done", arguments: { path: "Notes/Q.md" }, result: HOSTILE }, { tools: () => undefined, onResize: () => undefined });
		expect(cards.textContent).toContain("```dataviewjs");
		// History transcript: an answer and a tool result, rendered as they come into view.
		const parent = document.body.createDiv();
		const transcript = new HistoryTranscript(parent, asObsidianApp(app), [message("user", "Query?", "u1"), message("assistant", HOSTILE, "a1"), message("tool", HOSTILE, "t1")], { onToPrompt: () => undefined, onScroll: () => undefined, onShown: () => undefined });
		await transcript.restoreScroll(0);
		await settle();
		const shown = Array.from(parent.querySelectorAll<HTMLElement>(".discover-chat-history-message-text"));
		expect(shown.every((el) => !el.hasClass("is-plain"))).toBe(true);
		expectShownAsCode(shown[1]!);
		// The tool result is quoted as plain text: its code blocks are words on the page, never elements.
		const result = parent.querySelector<HTMLElement>(".discover-chat-history-tool-result");
		expect(result?.textContent).toContain("```dataviewjs");
		expect(result?.querySelector("pre, code")).toBeNull();
		// A search hit's snippet: words only.
		const snippet = document.body.createDiv();
		appendHighlighted(snippet, plainSnippet(HOSTILE), "query");
		expect(snippet.querySelector("code, pre")).toBeNull();
		transcript.destroy();
		expect(calls).toEqual([]);
	});

	it("raw HTML spelling a code block's class runs nothing either", async () => {
		const { app } = await loadPlugin(QueryPlugin);
		const el = createDiv();
		const component = new Component();
		component.load();
		await renderUntrustedMarkdown(asObsidianApp(app), '<pre><code class="language-dataviewjs">dv.el("b", 1)</code></pre>\n\nText `$= 1 + 1`', el, "", component, false);
		expect(calls).toEqual([]);
		expect(el.textContent).toContain("$= 1 + 1");
	});

	it("property: whatever mix of fences, containers and backticks, no code block processor or post-processor runs", async () => {
		const { app } = await loadPlugin(QueryPlugin);
		const piece = fc.constantFrom("```dataviewjs", "```dataview", "~~~tasks", "````dataviewjs x", "```", "~~~", "> ```dataviewjs", "- ```tasks", "   ```dataview", "`", "``", "`$= 1`", "`= x`", "``$= y``", "\\`", " $= ", "=", "dv.el('b', 1)", "text", "\n", "\n\n", "<pre><code class=\"language-tasks\">", "</code></pre>", "![[Note]]", "![i](https://e.example/x.png)");
		await fc.assert(
			fc.asyncProperty(fc.array(piece, { maxLength: 14 }), fc.array(fc.constantFrom(" ", "\n", ""), { maxLength: 14 }), async (pieces, joins) => {
				calls.length = 0;
				const markdown = pieces.map((p, i) => p + (joins[i] ?? "\n")).join("");
				const el = createDiv();
				const component = new Component();
				component.load();
				await renderUntrustedMarkdown(asObsidianApp(app), markdown, el, "", component, false);
				component.unload();
				expect(calls, markdown).toEqual([]);
				expect(el.textContent).not.toContain("RAN");
			}),
			{ numRuns: 300 },
		);
	});
});
