// @vitest-environment happy-dom
// Content that arrives after an answer is rendered (an embedded note Obsidian fills in once it is
// read, a plugin's post-processor, a canvas or PDF embed) loads nothing either.
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { Component } from "obsidian";
import { appendHtml } from "../obsidian/markdownHtml";
import { asObsidianApp, createTestApp, flush } from "../obsidian/harness";
import { renderUntrustedMarkdown } from "../../src/ui/safeMarkdown";
import { LazyMarkdown } from "../../src/ui/LazyMarkdown";
import { MAX_EMBED_DEPTH } from "../../src/ui/noteEmbed";
import { hostileImages, leaks as leaksOf } from "../support/hostileImages";

afterEach(() => document.body.empty());

const HOST = "attacker.example";
const HOSTILE = hostileImages(`https://${HOST}`);
const NOTE = "Clippings/Tracked page.md";

/** One named sample of HOSTILE (a missing name is a mistake in this test). */
function hostile(name: string): string {
	const html = HOSTILE[name];
	if (html === undefined) throw new Error(`no hostile sample named ${name}`);
	return html;
}

/** What in `root` names attacker.example (hostileImages.ts's leaks). */
const leaks = (root: HTMLElement): string[] => leaksOf(root, HOST);

/** Lets every embed fill in (each note read is a task of its own, embeds inside embeds too). */
async function settle(): Promise<void> {
	for (let i = 0; i < 20; i++) await flush();
}

async function renderAnswer(markdown: string, files: Record<string, string>, loadRemoteImages = false) {
	const app = asObsidianApp(await createTestApp({ files }));
	// Rendered detached and attached afterwards, as renderAndSwap does.
	const target = createDiv();
	const component = new Component();
	component.load();
	await renderUntrustedMarkdown(app, markdown, target, "Notes/Source.md", component, loadRemoteImages);
	const shown = document.body.createDiv();
	shown.append(target);
	return { shown, target, component };
}

describe("embeds in answers stay inert when their note fills in", () => {
	for (const [name, hostile] of Object.entries(HOSTILE)) {
		it(`an embedded note holding ${name} loads nothing, and the note still shows`, async () => {
			const { shown, component } = await renderAnswer("Here is your clipping:\n\n![[Tracked page]]\n\nThat is all.", { [NOTE]: `# Tracked page\n\nMy words.\n\n${hostile}\n` });
			await settle();
			expect(leaks(shown)).toEqual([]);
			expect(shown.querySelector(".internal-embed.is-loaded")?.textContent).toContain("My words.");
			component.unload();
		});
	}

	it("until its note is read, an embed holds its place with the note's name on one line, not a blank frame", async () => {
		const app = asObsidianApp(await createTestApp({ files: { [NOTE]: "# Tracked page\n\nMy words.\n" } }));
		// The note's read waits until the test lets it go: what the answer shows meanwhile.
		let release = (): void => undefined;
		const gate = new Promise<void>((resolve) => (release = resolve));
		const read = app.vault.cachedRead.bind(app.vault);
		app.vault.cachedRead = async (file) => {
			await gate;
			return read(file);
		};
		const shown = document.body.createDiv();
		const component = new Component();
		component.load();
		await renderUntrustedMarkdown(app, "Here is your clipping:\n\n![[Tracked page|My clipping]]\n\nThat is all.", shown, "Notes/Source.md", component, false);
		await settle();
		const embed = shown.querySelector(".discover-chat-embed");
		expect(embed?.classList.contains("is-loaded")).toBe(false);
		expect(embed?.querySelector(".markdown-embed-content")?.textContent).toBe("My clipping");
		release();
		await settle();
		expect(embed?.classList.contains("is-loaded")).toBe(true);
		expect(embed?.textContent).toContain("My words.");
		expect(embed?.textContent).not.toContain("My clipping");
		component.unload();
	});

	it("an embed inside the embedded note, of a section, with remote images allowed: iframes and styles still load nothing", async () => {
		const files = {
			[NOTE]: `# Tracked page\n\n![[Inner#Part]]\n`,
			"Clippings/Inner.md": `# Intro\n\nskip me\n\n# Part\n\nInner words.\n\n${hostile("iframe")}\n\n${hostile("style element")}\n\n${hostile("inline image")}\n`,
		};
		const { shown } = await renderAnswer("![[Tracked page]]", files, true);
		await settle();
		expect(shown.textContent).toContain("Inner words.");
		expect(shown.textContent).not.toContain("skip me");
		expect(shown.querySelector("iframe, style")).toBeNull();
		// Allowed remote images are the person's setting: the image in the note shows.
		expect(shown.querySelector(`img[src*="${HOST}"]`)).not.toBeNull();
	});

	it("an embed that is not a note in the vault becomes a link, and an embed in code stays code", async () => {
		const { shown } = await renderAnswer("![[Nowhere]] and `![[Tracked page]]`", { [NOTE]: "x" });
		await settle();
		expect(shown.querySelector("a.internal-link")?.getAttribute("data-href")).toBe("Nowhere");
		expect(shown.querySelector("code")?.textContent).toBe("![[Tracked page]]");
	});

	it("an embed of a canvas or a base (web pages, cover images from properties) becomes a link; local media stays Obsidian's", async () => {
		const files = { "Notes/Board.canvas": `{"nodes":[{"id":"a","type":"link","url":"https://${HOST}/page","x":0,"y":0,"width":400,"height":400}],"edges":[]}`, "Notes/Books.base": "views: []\n" };
		const { shown } = await renderAnswer("![[Board.canvas]] ![[Books.base|My books]] ![[photo.png]]", files);
		await settle();
		expect(Array.from(shown.querySelectorAll("a.internal-link")).map((a) => [a.getAttribute("data-href"), a.textContent])).toEqual([
			["Board.canvas", "Board.canvas"],
			["Books.base", "My books"],
		]);
		expect(shown.querySelector("span.internal-embed")?.getAttribute("src")).toBe("photo.png");
	});

	it("a note that embeds itself stops after a few levels, as a link", async () => {
		const { shown } = await renderAnswer("![[Loop]]", { "Notes/Loop.md": "Loop words ![[Loop]]" });
		await settle();
		expect(shown.textContent?.match(/Loop words/g)?.length).toBe(MAX_EMBED_DEPTH);
		expect(shown.querySelector("a.internal-link")?.getAttribute("data-href")).toBe("Loop");
	});

	it("a `<` just before an embed stays text in front of the embed", async () => {
		const { shown } = await renderAnswer("a <![[Tracked page]] b", { [NOTE]: "Inside." });
		await settle();
		expect(shown.textContent).toBe("a <Inside. b");
		expect(shown.querySelector(".internal-embed.is-loaded")).not.toBeNull();
	});

	it("the history browser's lazy rendering keeps embedded notes inert too", async () => {
		const app = asObsidianApp(await createTestApp({ files: { [NOTE]: `Saved words.\n\n${hostile("inline image")}\n\n${hostile("iframe")}\n` } }));
		const root = document.body.createDiv();
		const lazy = new LazyMarkdown(app, root, "", () => false);
		lazy.load();
		const el = root.createDiv();
		lazy.add(el, "![[Tracked page]]");
		await lazy.renderInView();
		await settle();
		expect(el.textContent).toContain("Saved words.");
		expect(leaks(root)).toEqual([]);
		lazy.unload();
	});
});

describe("what fills in after the render is made inert as it arrives", () => {
	/** A post-processor filling an element of the answer in later, with whatever HTML it likes. */
	async function fillLater(html: string, into: (shown: HTMLElement) => HTMLElement) {
		const { shown, component } = await renderAnswer("An embed: ![[scan.pdf]]\n\n- a list\n", {});
		appendHtml(into(shown), html);
		await flush();
		return { shown, component };
	}

	it("a remote img, iframe, srcset and CSS url() added to an embed later are neutralised", async () => {
		const html = [hostile("HTML img"), hostile("iframe"), hostile("picture/source"), hostile("CSS url() in a style attribute"), hostile("style element")].join("");
		const { shown, component } = await fillLater(html, (s) => s.find(".internal-embed"));
		expect(leaks(shown)).toEqual([]);
		expect(shown.querySelector("iframe")).toBeNull();
		// The remote image became the panel's "Image from host — load".
		expect(shown.querySelector("button.discover-chat-remote-image")).not.toBeNull();
		component.unload();
	});

	it("an attribute set later (src, srcset, style) is neutralised", async () => {
		const { shown, component } = await renderAnswer("text\n\n- item\n", {});
		const li = shown.find("li");
		const video = li.createEl("video");
		await flush();
		video.setAttribute("poster", `https://${HOST}/p.png`);
		li.setAttribute("style", `background:url(https://${HOST}/bg.png)`);
		const img = li.createEl("img", { attr: { alt: "local", src: "local.png" } });
		await flush();
		img.setAttribute("srcset", `https://${HOST}/s.png 2x`);
		await flush();
		expect(leaks(shown)).toEqual([]);
		component.unload();
	});

	it("property: any mix of hostile HTML filled in anywhere in the answer, at any time, leaves nothing remote", async () => {
		const names = Object.keys(HOSTILE).filter((n) => !n.includes("fence") && !/^(?:inline image|uppercase|protocol|angle|title and|reference|collapsed|numeric|named|backslash|link-wrapped|image in|wiki embed)/.test(n));
		await fc.assert(
			fc.asyncProperty(fc.array(fc.record({ name: fc.constantFrom(...names), where: fc.nat(6), later: fc.boolean() }), { minLength: 1, maxLength: 5 }), async (fills) => {
				const { shown, component } = await renderAnswer("# Heading\n\nA paragraph with ![[scan.pdf]].\n\n- one\n- two\n\n> quoted\n", {});
				for (const fill of fills) {
					const places = Array.from(shown.querySelectorAll<HTMLElement>("p, li, blockquote, h1, span"));
					appendHtml(places[fill.where % places.length] ?? shown, hostile(fill.name));
					if (fill.later) await flush();
				}
				await flush();
				const found = leaks(shown);
				component.unload();
				expect(found).toEqual([]);
			}),
			{ numRuns: 60 },
		);
	});

	it("a watch follows the rendered nodes when they move into the element on screen (as the history browser moves them)", async () => {
		const { target, component } = await renderAnswer("- item\n", {});
		const screen = document.body.createDiv();
		screen.append(...Array.from(target.childNodes));
		appendHtml(screen.find("li"), hostile("iframe") + hostile("HTML img"));
		await flush();
		expect(leaks(screen)).toEqual([]);
		component.unload();
	});

	it("the person's own click on load keeps its image: the watch does not undo it", async () => {
		const { shown, component } = await renderAnswer(`${hostile("inline image")}\n`, {});
		shown.find("button.discover-chat-remote-image").click();
		await flush();
		expect(shown.querySelector(`img.discover-chat-remote-image-loaded[src*="${HOST}"]`)).not.toBeNull();
		component.unload();
	});

	it("the watch ends when the answer's Component unloads (no observer outlives the answer)", async () => {
		const { shown, component } = await renderAnswer("- item\n", {});
		component.unload();
		appendHtml(shown.find("li"), hostile("HTML img"));
		await flush();
		// Nothing watches any more: the test's own late img is left as it was.
		expect(shown.querySelector(`img[src*="${HOST}"]`)).not.toBeNull();
	});
});
