// @vitest-environment happy-dom
// Discover's own renderer for model output (src/ui/markdown/): what Obsidian's reading view shows —
// callouts, [[links]], tags, task lists, tables, math, highlighted code — built from tokens with
// createEl, so raw HTML is text and nothing another plugin registered (code block processors,
// post-processors, Prism hooks) runs on it.
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Component, loadPrism } from "obsidian";
import { asObsidianApp, createTestApp, flush } from "../obsidian/harness";
import { renderUntrustedMarkdown } from "../../src/ui/safeMarkdown";
import { MAX_HIGHLIGHTED_CHARS } from "../../src/ui/markdown/codeHighlight";
import { calloutOf } from "../../src/ui/markdown/callouts";
import { decodeEntities } from "../../src/ui/markdown/entities";

afterEach(() => {
	document.body.empty();
	vi.restoreAllMocks();
});

async function render(markdown: string, files: Record<string, string> = {}) {
	const app = await createTestApp({ files });
	const el = document.body.createDiv();
	const component = new Component();
	component.load();
	await renderUntrustedMarkdown(asObsidianApp(app), markdown, el, "Notes/Chat.md", component, false);
	return { el, app, component };
}

/** Waits for Prism (loaded once, then at once) and the highlighting it does after the render. */
async function highlighted(): Promise<void> {
	await loadPrism();
	for (let i = 0; i < 5; i++) await flush();
}

describe("the renderer for model output", () => {
	it("shows what the reading view shows: headings, emphasis, lists, task lists, tables, rules, highlights", async () => {
		const { el } = await render(["# Title", "", "Some **bold**, *em*, ~~gone~~ and ==marked== text.", "", "1. one", "2. two", "", "- [x] done", "- [ ] todo", "", "| a | b |", "|:--|--:|", "| 1 | 2 |", "", "---"].join("\n"));
		expect(el.querySelector("h1")?.textContent).toBe("Title");
		expect(el.querySelector("strong")?.textContent).toBe("bold");
		expect(el.querySelector("em")?.textContent).toBe("em");
		expect(el.querySelector("del")?.textContent).toBe("gone");
		expect(el.querySelector("mark")?.textContent).toBe("marked");
		expect(Array.from(el.querySelectorAll("ol > li")).map((li) => li.textContent)).toEqual(["one", "two"]);
		const tasks = Array.from(el.querySelectorAll<HTMLElement>("ul.contains-task-list > li.task-list-item"));
		expect(tasks.map((li) => [li.getAttribute("data-task"), li.querySelector<HTMLInputElement>("input.task-list-item-checkbox")?.checked, li.textContent])).toEqual([
			["x", true, "done"],
			[" ", false, "todo"],
		]);
		expect(tasks[0]?.querySelector("input")?.hasAttribute("disabled")).toBe(true);
		expect(Array.from(el.querySelectorAll("th")).map((th) => [th.textContent, th.className])).toEqual([
			["a", "is-align-left"],
			["b", "is-align-right"],
		]);
		expect(el.querySelector("tbody td")?.textContent).toBe("1");
		expect(el.querySelector("hr")).not.toBeNull();
	});

	it("callouts: type, title, icon, and a folded one opens on a click", async () => {
		const { el } = await render("> [!warning]- Mind the **gap**\n> Body text.\n\n> [!tip]\n> No title.\n\n> a plain quote");
		const [warning, tip] = Array.from(el.querySelectorAll<HTMLElement>(".callout"));
		expect(warning?.getAttribute("data-callout")).toBe("warning");
		expect(warning?.querySelector(".callout-title-inner")?.textContent).toBe("Mind the gap");
		expect(warning?.querySelector(".callout-title-inner strong")?.textContent).toBe("gap");
		expect(warning?.querySelector(".callout-icon svg")).not.toBeNull();
		expect(warning?.querySelector(".callout-content")?.textContent).toBe("Body text.");
		expect(warning?.hasClass("is-collapsed")).toBe(true);
		warning?.querySelector<HTMLElement>(".callout-title")?.click();
		expect(warning?.hasClass("is-collapsed")).toBe(false);
		expect(tip?.querySelector(".callout-title-inner")?.textContent).toBe("Tip");
		expect(tip?.hasClass("is-collapsible")).toBe(false);
		expect(el.querySelector("blockquote")?.textContent).toBe("a plain quote");
	});

	it("[[links]] and relative links open the note; unresolved ones are marked; tags and math show as Obsidian shows them", async () => {
		const { el, app } = await render("See [[Plan|the plan]], [[Missing]], [notes](Plan.md) and #project/alpha, not #123. Math: $e^{i\\pi}$\n\n$$\nx^2\n$$", { "Notes/Plan.md": "plan" });
		const links = Array.from(el.querySelectorAll<HTMLAnchorElement>("a.internal-link"));
		expect(links.map((a) => [a.getAttribute("data-href"), a.textContent, a.hasClass("is-unresolved")])).toEqual([
			["Plan", "the plan", false],
			["Missing", "Missing", true],
			["Plan.md", "notes", false],
		]);
		const open = vi.spyOn(app.workspace, "openLinkText");
		links[0]!.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
		links[2]!.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, ctrlKey: true }));
		expect(open.mock.calls).toEqual([
			["Plan", "Notes/Chat.md", false],
			["Plan.md", "Notes/Chat.md", true],
		]);
		expect(Array.from(el.querySelectorAll("a.tag")).map((a) => a.textContent)).toEqual(["#project/alpha"]);
		const math = Array.from(el.querySelectorAll("mjx-container"));
		expect(math.map((m) => [m.textContent, m.getAttribute("display")])).toEqual([
			["e^{i\\pi}", null],
			["x^2", "true"],
		]);
	});

	it("code blocks are highlighted by Obsidian's Prism and keep their exact text; each has a copy button", async () => {
		const code = 'const greeting: string = "hi"; // <b>not bold</b>';
		const { el } = await render("```ts\n" + code + "\n```\n\n```unknownlang\nplain\n```");
		await highlighted();
		const [ts, plain] = Array.from(el.querySelectorAll<HTMLElement>("pre > code"));
		expect(ts?.hasClass("language-ts")).toBe(true);
		expect(ts?.textContent).toBe(code);
		expect(ts?.querySelector("span.token.keyword")?.textContent).toBe("const");
		expect(ts?.querySelector("span.token.string")?.textContent).toBe('"hi"');
		expect(ts?.querySelector("b")).toBeNull();
		expect(plain?.textContent).toBe("plain");
		expect(plain?.querySelector("span")).toBeNull();
		const writeText = vi.fn(() => Promise.resolve());
		Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
		el.querySelector<HTMLElement>("pre .copy-code-button")?.click();
		expect(writeText).toHaveBeenCalledWith(code);
	});

	it("Prism's hooks, which other plugins can add to, never run on model output", async () => {
		const prism = (await loadPrism()) as { hooks: { add(name: string, fn: () => void): void; all: Record<string, unknown[]> } };
		const ran: string[] = [];
		for (const hook of ["before-highlight", "before-tokenize", "after-tokenize", "wrap", "after-highlight", "complete"]) prism.hooks.add(hook, () => ran.push(hook));
		try {
			const { el } = await render("```js\nlet x = 1;\n```");
			await highlighted();
			expect(el.querySelector("span.token.keyword")?.textContent).toBe("let");
			expect(ran).toEqual([]);
		} finally {
			for (const hook of Object.keys(prism.hooks.all)) prism.hooks.all[hook] = [];
		}
	});

	it("code too long to highlight on the main thread shows as text", async () => {
		const code = "let x = 1;\n".repeat(Math.ceil(MAX_HIGHLIGHTED_CHARS / 11) + 1);
		const { el } = await render("```js\n" + code + "```");
		await highlighted();
		expect(el.querySelector("pre > code span")).toBeNull();
		expect(el.querySelector("pre > code")?.textContent).toBe(code.slice(0, -1));
	});

	it("raw HTML is text, but for bare tags that only format text; scripts and handlers never become elements", async () => {
		const { el } = await render('H<sub>2</sub>O, <kbd>Ctrl</kbd>, <b onclick="x()">not bold</b>, <u>open\n\n<script>alert(1)</script>\n\n<details><summary>s</summary>hidden</details>');
		expect(el.querySelector("sub")?.textContent).toBe("2");
		expect(el.querySelector("kbd")?.textContent).toBe("Ctrl");
		expect(el.querySelector("b, u, script, details")).toBeNull();
		expect(el.textContent).toContain('<b onclick="x()">not bold</b>');
		expect(el.textContent).toContain("<u>open");
		expect(el.textContent).toContain("<script>alert(1)</script>");
	});

	it("links that are not web, mail or obsidian:// addresses are not followed; entities read as their characters", async () => {
		const { el } = await render("[a](javascript:alert(1)) [b](file:///etc/passwd) [c](data:text/html,x) [d](https://e.example/?q=1&amp;r=2) AT&amp;T &copy; &#x1F600; &bogus; `&amp;`");
		expect(Array.from(el.querySelectorAll("a")).map((a) => a.getAttribute("href"))).toEqual(["https://e.example/?q=1&r=2"]);
		expect(Array.from(el.querySelectorAll(".discover-chat-link-unopened")).map((s) => [s.textContent, s.getAttribute("title")])).toEqual([
			["a", "javascript:alert(1)"],
			["b", "file:///etc/passwd"],
			["c", "data:text/html,x"],
		]);
		expect(el.textContent).toContain("AT&T © 😀 &bogus; &amp;");
	});

	it("%%comments%% are hidden as in reading view; an unclosed %% stays text", async () => {
		const { el } = await render("Shown %%hidden%% text.\n\n%%\nblock comment\n%%\n\nAfter. 100%% sure");
		expect(el.textContent).toBe("Shown  text.After. 100%% sure");
	});

	it("vault images show from the vault; a missing one shows its name; sizes are read", async () => {
		const { el } = await render("![[Pics/cat.png|120]] ![[nowhere.png]] ![dog](Pics/cat.png)", { "Pics/cat.png": "png" });
		const imgs = Array.from(el.querySelectorAll("span.image-embed img"));
		expect(imgs.map((i) => [i.getAttribute("src")?.endsWith("Pics/cat.png"), i.getAttribute("width")])).toEqual([
			[true, "120"],
			[true, null],
		]);
		expect(el.querySelector(".internal-embed.is-unresolved")?.textContent).toBe("nowhere.png");
	});

	it("property: whatever the text, only known elements are built, no attribute runs code, and every link is the person's to follow", async () => {
		const piece = fc.oneof(
			fc.string({ maxLength: 12 }),
			fc.constantFrom("<script>x</script>", "<img src=x onerror=y>", '<a href="javascript:x">', "<iframe src=//h>", "<svg onload=x>", "<style>*{}</style>", "[l](javascript:x)", "[l](//h/x)", "![i](//h/i.png)", "[[N]]", "![[N]]", "> [!note]", "```js", "```", "$x$", "$$", "==h==", "%%", "#tag", "|a|b|\n|-|-|", "- [ ] t", "<sub>", "</sub>", "&#0;", "&lt;script&gt;", "\n", "\n\n", "    ", "> "),
		);
		const allowed = new Set(["div", "p", "span", "a", "strong", "em", "del", "mark", "code", "pre", "button", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "input", "table", "thead", "tbody", "tr", "th", "td", "blockquote", "img", "sub", "sup", "kbd", "u", "ins", "s", "small", "b", "i", "mjx-container", "svg", "path", "line", "circle", "polyline", "rect", "polygon"]);
		const app = asObsidianApp(await createTestApp({ files: { "N.md": "note" } }));
		await fc.assert(
			fc.asyncProperty(fc.array(piece, { maxLength: 16 }), async (pieces) => {
				const markdown = pieces.join("");
				const el = createDiv();
				const component = new Component();
				component.load();
				await renderUntrustedMarkdown(app, markdown, el, "", component, false);
				for (const node of Array.from(el.querySelectorAll("*"))) {
					expect(allowed.has(node.tagName.toLowerCase()), `${node.tagName} from ${JSON.stringify(markdown)}`).toBe(true);
					for (const attr of Array.from(node.attributes)) expect(attr.name.startsWith("on"), markdown).toBe(false);
					const href = node.getAttribute("href");
					if (node.tagName === "A" && href !== null && /^[a-z][\w+.-]*:|^\/\//i.test(href)) expect(href, markdown).toMatch(/^(?:https?|mailto|obsidian):/i);
					const src = node.getAttribute("src");
					if (node.tagName === "IMG") expect(src ?? "", markdown).toMatch(/^(?:app:|data:image\/)/i);
				}
				component.unload();
			}),
			{ numRuns: 300 },
		);
	});
});

describe("its pieces", () => {
	it("calloutOf reads type, fold, metadata and title as Obsidian does", () => {
		expect(calloutOf("[!NOTE|wide]+ My title\nbody\nmore")).toEqual({ type: "note", fold: "+", metadata: "wide", title: "My title", body: "body\nmore" });
		expect(calloutOf("[!faq]")).toMatchObject({ type: "faq", fold: "", title: "Faq", body: "" });
		expect(calloutOf("not [!a] callout")).toBeUndefined();
	});

	it("decodeEntities reads numeric and named references, and never makes an element", () => {
		expect(decodeEntities("&lt;img src=x&gt; &#65;&#x42; &#0; &#xD800; &amp;amp; &nope;")).toBe("<img src=x> AB \ufffd \ufffd &amp; &nope;");
	});
});
