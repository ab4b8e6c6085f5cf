// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { Component, MarkdownRenderer } from "obsidian";
import { asObsidianApp, createTestApp, flush, setBrowserTagOpenings } from "./harness";

async function render(md: string): Promise<HTMLElement> {
	const app = asObsidianApp(await createTestApp());
	const el = createDiv();
	const component = new Component();
	await MarkdownRenderer.render(app, md, el, "Notes/Source.md", component);
	component.unload();
	return el;
}

describe("MarkdownRenderer.render", () => {
	it("renders headings, paragraphs with line breaks, emphasis and inline code", async () => {
		const el = await render("# Title\n\nSome **bold**, *italic*, ~~gone~~, ==marked== and `code`.\nNext line\n\nsnake_case_name stays");
		expect(el.innerHTML).toBe(
			"<h1>Title</h1><p>Some <strong>bold</strong>, <em>italic</em>, <del>gone</del>, <mark>marked</mark> and <code>code</code>.<br>Next line</p><p>snake_case_name stays</p>",
		);
	});

	it("renders nested and ordered lists and tasks", async () => {
		const el = await render("- one\n  - nested\n- two\n\n1. first\n2. second\n\n- [x] done\n- [ ] todo");
		expect(el.findAll("ul > li")).toHaveLength(5);
		expect(el.find("ul > li > ul > li").getText()).toBe("nested");
		expect(el.findAll("ol > li").map((li) => li.getText())).toEqual(["first", "second"]);
		const boxes = el.findAll("input.task-list-item-checkbox") as HTMLInputElement[];
		expect(boxes.map((b) => b.checked)).toEqual([true, false]);
	});

	it("renders fenced code verbatim, with the language class and a copy button", async () => {
		const el = await render("```ts\nconst a = 1 < 2 && **not bold**;\n```\nafter");
		expect(el.find("pre > code.language-ts").textContent).toBe("const a = 1 < 2 && **not bold**;");
		expect(el.find("pre > button.copy-code-button")).not.toBeNull();
		expect(el.find("p").getText()).toBe("after");
	});

	it("an unclosed fence (a streaming answer) still renders as code", async () => {
		const el = await render("Intro\n```py\nprint(1)");
		expect(el.find("pre code").textContent).toBe("print(1)");
	});

	it("renders wikilinks as internal links and URLs as external ones", async () => {
		const el = await render("See [[Other note|the other]] and [[Plain]], [site](https://example.org), [local](Folder/Note.md), https://obsidian.md.");
		const internal = el.findAll("a.internal-link");
		expect(internal.map((a) => [a.getAttr("data-href"), a.getText()])).toEqual([
			["Other note", "the other"],
			["Plain", "Plain"],
			["Folder/Note.md", "local"],
		]);
		const external = el.findAll("a.external-link");
		expect(external.map((a) => [a.getAttr("href"), a.getText()])).toEqual([
			["https://example.org", "site"],
			["https://obsidian.md", "https://obsidian.md"],
		]);
	});

	it("renders tables with inline Markdown in cells", async () => {
		const el = await render("| Name | Size |\n| --- | ---: |\n| **a** | 1 |\n| b | `2` |\n\nafter");
		expect(el.findAll("thead th").map((th) => th.getText())).toEqual(["Name", "Size"]);
		expect(el.findAll("tbody tr")).toHaveLength(2);
		expect(el.find("tbody td strong").getText()).toBe("a");
		expect(el.find("tbody tr:last-child td code").getText()).toBe("2");
		expect(el.find("p").getText()).toBe("after");
	});

	it("renders blockquotes and rules, and raw HTML as Obsidian does: parsed, without scripts or handlers", async () => {
		const el = await render('> quoted *text*\n\n---\n\nSome <b>bold</b> <script>alert(1)</script> & <img src="https://example.org/a.png" onerror="x()">\n\n<div class="box">block <i>html</i></div>');
		expect(el.find("blockquote > p > em").getText()).toBe("text");
		expect(el.find("hr")).not.toBeNull();
		expect(el.find("script")).toBeNull();
		expect(el.find("p b")).not.toBeNull();
		expect(el.find("p img").getAttr("src")).toBe("https://example.org/a.png");
		expect(el.find("p img").getAttr("onerror")).toBeNull();
		expect(el.find("div.box > i").getText()).toBe("html");
	});

	it("with browser tag openings, a `<` before a non-letter is text and the tag after it still forms (happy-dom alone swallows it)", async () => {
		const md = '<div><| <img src="x.png"> a <1 b</div>';
		expect((await render(md)).querySelector("img")).toBeNull();
		setBrowserTagOpenings(true);
		try {
			const el = await render(md);
			expect(el.querySelector("div img")?.getAttribute("src")).toBe("x.png");
			expect(el.querySelector("div")?.textContent).toBe("<|  a <1 b");
		} finally {
			setBrowserTagOpenings(false);
		}
	});

	it("renders external images as <img>, vault images as embeds, reference images and link-wrapped images", async () => {
		const el = await render("![a](https://example.org/a.png) ![b](<Pics/my b.png>) ![c][ref] [![d](//example.org/d.png)](https://example.org)\n\n[ref]: https://example.org/c.png");
		expect(el.findAll("img").map((img) => img.getAttr("src"))).toEqual(["https://example.org/a.png", "https://example.org/c.png", "//example.org/d.png"]);
		expect(el.find("span.internal-embed").getAttr("src")).toBe("Pics/my b.png");
		expect(el.find("a.external-link > img")).not.toBeNull();
		expect(el.getText()).not.toContain("[ref]");
	});
});

describe("MarkdownRenderer.render: embeds of notes", () => {
	const files = { "Notes/Embedded.md": "# Embedded\n\nInside ![[Deeper]].\n", "Notes/Deeper.md": "Deepest words.\n" };

	it("fills an embed of a note after the render resolves, once the note is read, embeds inside it too", async () => {
		const app = asObsidianApp(await createTestApp({ files }));
		const el = createDiv();
		const component = new Component();
		component.load();
		await MarkdownRenderer.render(app, "Before ![[Embedded]] after", el, "Notes/Source.md", component);
		const embed = el.find("span.internal-embed");
		expect(embed.hasClass("is-loaded")).toBe(false);
		for (let i = 0; i < 5; i++) await flush();
		expect(embed.hasClass("is-loaded")).toBe(true);
		expect(embed.find(".markdown-embed-content h1").getText()).toBe("Embedded");
		expect(embed.getText()).toContain("Deepest words.");
		component.unload();
	});

	it("leaves the embed as it was when the render's Component unloads before the note is read", async () => {
		const app = asObsidianApp(await createTestApp({ files }));
		const el = createDiv();
		const component = new Component();
		component.load();
		await MarkdownRenderer.render(app, "![[Embedded]]", el, "Notes/Source.md", component);
		component.unload();
		for (let i = 0; i < 5; i++) await flush();
		expect(el.find("span.internal-embed").hasClass("is-loaded")).toBe(false);
		expect(el.querySelector(".markdown-embed-content")).toBeNull();
	});
});
