// @vitest-environment happy-dom
// Images and raw HTML in answers load nothing from the network until the person clicks "load".
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { Component } from "obsidian";
import { asObsidianApp, createTestApp, flush, setBrowserTagOpenings } from "../obsidian/harness";
import { MessageList } from "../../src/ui/panel/MessageList";
import { renderUntrustedMarkdown } from "../../src/ui/safeMarkdown";
import { hostileImages, leaks as leaksOf } from "../support/hostileImages";
import { ManualFrames, message } from "./fakes";

afterEach(() => {
	document.body.empty();
	setBrowserTagOpenings(false);
});

const HOST = "attacker.example";

/** Every way an answer can ask the renderer to fetch from attacker.example. */
const HOSTILE = hostileImages(`https://${HOST}`);

/** What in `root` names attacker.example (hostileImages.ts's leaks). */
const leaks = (root: HTMLElement): string[] => leaksOf(root, HOST);

async function renderSafely(markdown: string, loadRemoteImages = false): Promise<HTMLElement> {
	const app = asObsidianApp(await createTestApp());
	const el = document.body.createDiv();
	const component = new Component();
	component.load();
	await renderUntrustedMarkdown(app, markdown, el, "", component, loadRemoteImages);
	return el;
}

async function answerList(loadRemoteImages: boolean) {
	const app = await createTestApp();
	const frames = new ManualFrames();
	const list = new MessageList(document.body.createDiv(), { app: asObsidianApp(app), sourcePath: () => "", loadRemoteImages: () => loadRemoteImages, scheduler: frames.options });
	list.load();
	return { list, frames };
}

describe("remote images in answers", () => {
	it("an answer with hostile images and HTML loads nothing from their host, saved or streaming", async () => {
		const answer = Object.values(HOSTILE).join("\n\n");
		const { list, frames } = await answerList(false);
		list.upsert(message("assistant", answer));
		await flush();
		expect(leaks(list.scrollEl)).toEqual([]);
		list.startStreaming();
		list.appendToken(answer);
		frames.frame();
		await flush();
		expect(leaks(list.scrollEl)).toEqual([]);
		expect(list.scrollEl.textContent).toContain(`Image from ${HOST} — load`);
	});

	for (const [name, markdown] of Object.entries(HOSTILE)) {
		it(`loads nothing from the host: ${name}`, async () => {
			expect(leaks(await renderSafely(markdown))).toEqual([]);
		});
	}

	it("shows a placeholder naming the host, which loads the image when clicked (and does not follow a link)", async () => {
		const el = await renderSafely(`Before [![cat](https://${HOST}/cat.png)](https://example.org) after`);
		const button = el.querySelector<HTMLButtonElement>("button.discover-chat-remote-image");
		expect(button?.textContent).toBe(`Image from ${HOST} — load`);
		expect(el.querySelector("img")).toBeNull();
		const click = new MouseEvent("click", { bubbles: true, cancelable: true });
		button?.dispatchEvent(click);
		expect(click.defaultPrevented).toBe(true);
		expect(el.querySelector("img")?.getAttribute("src")).toBe(`https://${HOST}/cat.png`);
		expect(el.querySelector("img")?.getAttribute("alt")).toBe("cat");
		expect(el.querySelector("button")).toBeNull();
	});

	it("protocol-relative and backslashed addresses load over https when clicked; file: is never offered; HTML is text", async () => {
		// A file: URL (or a Windows share reached as one) would send the person's credentials to the host.
		const el = await renderSafely(String.raw`![](//${HOST}/p.png) ![](\\\\${HOST}\\share\\x.png) <img src="\\${HOST}\share\y.png"> ![](file://${HOST}/x.png)`);
		const buttons = Array.from(el.querySelectorAll("button.discover-chat-remote-image"));
		expect(buttons.map((b) => b.textContent)).toEqual([`Image from ${HOST} — load`, `Image from ${HOST} — load`]);
		for (const b of buttons) b.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
		expect(Array.from(el.querySelectorAll("img")).map((i) => i.getAttribute("src"))).toEqual([`https://${HOST}/p.png`, `https://${HOST}/share/x.png`]);
		expect(Array.from(el.querySelectorAll("span.discover-chat-remote-image")).map((s) => s.textContent)).toEqual([`Image from ${HOST}`]);
		// Raw HTML is the text the model wrote.
		expect(el.textContent).toContain(String.raw`<img src="\\${HOST}\share\y.png">`);
	});

	it("vault images, wiki embeds, app:// and data: images still show", async () => {
		const data = "data:image/png;base64,iVBORw0KGgo=";
		const el = await renderSafely(`![a](Pics/a.png) ![b](<Pics/my b.png>) ![[c.png]] ![d](${data}) ![e](app://local/vault/e.png) <img src="${data}" alt="f">`);
		expect(Array.from(el.querySelectorAll("span.internal-embed")).map((s) => s.getAttribute("src"))).toEqual(["Pics/a.png", "Pics/my b.png", "c.png"]);
		expect(Array.from(el.querySelectorAll("img")).map((i) => i.getAttribute("src"))).toEqual([data, "app://local/vault/e.png"]);
		expect(el.textContent).toContain(`<img src="${data}" alt="f">`);
		expect(el.querySelector(".discover-chat-remote-image")).toBeNull();
	});

	it("code shows exactly what the model wrote, and raw HTML outside code shows as text", async () => {
		const code = `<img src="https://${HOST}/c.png"> ![x](https://${HOST}/md.png) \ue000 <iframe src=x>`;
		const el = await renderSafely(`Inline \`${code}\`\n\n\`\`\`html\n${code}\n\`\`\`\n\n- nested:\n  \`\`\`\n  ${code}\n  \`\`\`\n\n<span class="x">text</span> a<b and c>d <br> <sub>2</sub> <https://example.org/x?a=b>`);
		const codes = Array.from(el.querySelectorAll("code")).map((c) => c.textContent?.trim());
		expect(codes).toEqual([code, code, code]);
		// Tags are shown as text, but for bare tags that only format text (`<sub>`, `<br>`).
		expect(el.textContent).toContain('<span class="x">text</span> a<b and c>d');
		expect(el.querySelector("sub")).not.toBeNull();
		expect(el.querySelector("br")).not.toBeNull();
		expect(el.querySelector('a.external-link[href="https://example.org/x?a=b"]')?.textContent).toBe("https://example.org/x?a=b");
		expect(leaks(el)).toEqual([]);
	});

	it("with “Load images from the web in answers” on, remote images load as before", async () => {
		const { list } = await answerList(true);
		list.upsert(message("assistant", `![](https://${HOST}/on.png)`));
		await flush();
		expect(list.scrollEl.querySelector("img")?.getAttribute("src")).toBe(`https://${HOST}/on.png`);
	});

	// Found by the property below: a stray `<` before a fence or a table inside an HTML block lets a lax
	// HTML parser open a bogus tag that swallows the markup after it, the guard's broken-up tag included,
	// so the loader's address lands in an attribute. The final pass over the DOM removes it, whatever the shape.
	const strayTagShapes: Record<string, string> = {
		"an object after a stray < and an unclosed fence": `</div><\`\`\`<object data="https://${HOST}/o.svg"></object>`,
		"an embed after a stray < and an unclosed fence in a div": `<div>\n<\`\`\`\n<embed src="https://${HOST}/e.svg">`,
		"audio after a stray < and a table in a div": `<div><| a |\n| --- |\n| ![](https://${HOST}/td.png) |<audio src="https://${HOST}/a.mp3"></audio>`,
	};
	for (const [name, markdown] of Object.entries(strayTagShapes)) {
		it(`loads nothing from the host: ${name}`, async () => {
			expect(leaks(await renderSafely(markdown))).toEqual([]);
		});
	}

	it("with “Load images from the web in answers” on, iframes, embeds and other loaders still load nothing", async () => {
		const el = await renderSafely([HOSTILE.iframe, HOSTILE.embed, HOSTILE.object, HOSTILE["video poster"], HOSTILE["stylesheet link"], HOSTILE["svg use"]].join("\n\n"), true);
		expect(leaks(el)).toEqual([]);
	});

	// Both ways a parser may open a tag (see setBrowserTagOpenings): each can hide a leak the other shows.
	for (const browser of [false, true]) {
		it(`property (${browser ? "a browser's" : "happy-dom's lax"} tag openings): no mix of hostile fragments and Markdown syntax loads anything from the host`, async () => {
			setBrowserTagOpenings(browser);
			const syntax = ["![", "](", ")", "[", "]", "<", ">", "`", "```", "~~~", "\n", "\n\n", "\r\n", "\t", "    ", "> ", "- ", "1. ", "|", '"', "'", "\\", "&", "&#", "(", "</", "<img ", " src=", "<div>", "</div>", "<details>", "<pre>", "<!--", `//${HOST}/p.png`, `https://${HOST}/x`, "[r]: ", "\ue000", "\ue001", "text"];
			const fragments = [...Object.values(HOSTILE), ...syntax];
			await fc.assert(
				fc.asyncProperty(fc.array(fc.constantFrom(...fragments), { maxLength: 12 }), async (parts) => {
					const el = await renderSafely(parts.join(""));
					expect(leaks(el)).toEqual([]);
					el.remove();
				}),
				{ numRuns: 1000 },
			);
		});
	}
});
