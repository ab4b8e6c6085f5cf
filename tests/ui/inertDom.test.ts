// @vitest-environment happy-dom
// The final pass over rendered Markdown: whatever the renderer built, nothing left can fetch.
import { afterEach, describe, expect, it } from "vitest";
import "../obsidian/index";
import { appendHtml } from "../obsidian/markdownHtml";
import { cssLoads, makeInert } from "../../src/ui/inertDom";

afterEach(() => document.body.empty());

const HOST = "attacker.example";
const R = `https://${HOST}`;

/** A detached tree built from `html` as the renderer would build it, after the pass. */
function inert(html: string, allowRemoteImages = false): { el: HTMLElement; count: number } {
	const el = createDiv();
	appendHtml(el, html);
	const count = makeInert(el, { allowRemoteImages, imagePlaceholder: (url) => createEl("button", { cls: "placeholder", text: `load ${url}` }) });
	return { el, count };
}

/** Every attribute that still names the host (links and text attributes aside). */
function remoteAttributes(root: HTMLElement): string[] {
	const found: string[] = [];
	for (const el of Array.from(root.querySelectorAll("*"))) {
		for (const attr of Array.from(el.attributes)) {
			if (["title", "alt", "aria-label"].includes(attr.name) || (el.localName === "a" && ["href", "data-href"].includes(attr.name))) continue;
			if (attr.value.includes(HOST)) found.push(`${el.localName} ${attr.name}`);
		}
	}
	return found;
}

describe("makeInert", () => {
	const loaders: Record<string, string> = {
		iframe: `<iframe src="${R}/f"></iframe>`,
		"iframe srcdoc": `<iframe srcdoc="<img src=${R}/d.png>"></iframe>`,
		embed: `<embed src="${R}/e.svg">`,
		object: `<object data="${R}/o.svg"><param name="movie" value="${R}/m"></object>`,
		"stylesheet link": `<link rel="stylesheet" href="${R}/s.css">`,
		"preload link with imagesrcset": `<link rel="preload" as="image" imagesrcset="${R}/p.png 1x">`,
		"meta refresh": `<meta http-equiv="refresh" content="0;url=${R}/r">`,
		base: `<base href="${R}/">`,
		template: `<template><img src="${R}/t.png"></template>`,
		"svg set": `<svg><image><set attributeName="href" to="${R}/s.png"/></image></svg>`,
	};
	for (const [name, html] of Object.entries(loaders)) {
		it(`shows a loader element as its text: ${name}`, () => {
			const { el } = inert(html);
			expect(el.querySelector("iframe, embed, object, param, link, meta, base, template, set")).toBeNull();
			expect(el.textContent).toContain("<");
			expect(remoteAttributes(el)).toEqual([]);
		});
	}

	const attributes: Record<string, string> = {
		"video src and poster": `<video src="${R}/v.mp4" poster="${R}/v.png"></video>`,
		"video source and track": `<video><source src="${R}/v.webm"><track src="${R}/t.vtt"></video>`,
		audio: `<audio src="${R}/a.mp3"></audio>`,
		"picture source srcset": `<picture><source srcset="${R}/p.png 2x, p.png 1x"><img alt="p"></picture>`,
		"input type=image": `<input type="image" src="${R}/i.png">`,
		"svg image href": `<svg><image href="${R}/i.png"/></svg>`,
		"svg image xlink:href": `<svg xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="${R}/x.png"/></svg>`,
		"svg use": `<svg><use href="${R}/sprite.svg#a"/></svg>`,
		"svg feImage": `<svg><filter><feImage href="${R}/fe.png"/></filter></svg>`,
		"svg fill url()": `<svg><rect fill="url(${R}/g.svg#p)"/></svg>`,
		"svg image href with 'image' in the address": `<svg><image href="${R}/image.png"/></svg>`,
		"svg filter url() with a CSS escape": `<svg><rect filter="u\\72l(${R}/f.svg#f)"/></svg>`,
		"table background": `<table background="${R}/t.png"><tr><td background="${R}/td.png">x</td></tr></table>`,
		"style url()": `<div style="background:url(${R}/bg.png)">x</div>`,
		"style with a CSS escape": `<div style="background:u\\72l(${R}/esc.png)">x</div>`,
		"style image-set()": `<span style='background-image:image-set("${R}/is.png" 1x)'>x</span>`,
		"protocol-relative": `<video poster="//${HOST}/pr.png"></video>`,
		"form action": `<form action="${R}/f"><button formaction="${R}/b">go</button></form>`,
		"link ping": `<a href="https://example.org" ping="${R}/ping">x</a>`,
	};
	for (const [name, html] of Object.entries(attributes)) {
		it(`removes a loading attribute and keeps the element: ${name}`, () => {
			const { el, count } = inert(html);
			expect(remoteAttributes(el)).toEqual([]);
			expect(el.querySelector("[ping], [poster], [background], [action], [formaction]")).toBeNull();
			expect(count).toBeGreaterThan(0);
			expect(el.children.length).toBeGreaterThan(0);
		});
	}

	it("makes a remote <img> a placeholder, by src or by srcset alone", () => {
		const { el } = inert(`<img src="${R}/a.png" alt="a"><img srcset="b.png 1x, ${R}/b.png 2x"><IMG SRC=//${HOST}/c.png>`);
		expect(el.querySelector("img")).toBeNull();
		expect(Array.from(el.querySelectorAll("button.placeholder")).map((b) => b.textContent)).toEqual([`load ${R}/a.png`, `load ${R}/b.png`, `load //${HOST}/c.png`]);
	});

	it("keeps what loads from the vault or nowhere: vault paths, app: and data: images, #refs, links, internal embeds", () => {
		const data = "data:image/png;base64,iVBORw0KGgo=";
		const html = `<img src="${data}"><img src="app://local/vault/e.png"><img src="Pics/a.png"><span class="internal-embed" src="c.png"></span>` + `<a class="internal-link" data-href="Note (1)" href="Note (1)">n</a><a href="${R}/page">p</a>` + `<svg><defs><linearGradient id="g"/></defs><rect fill="url(#g)" marker-end="url(#arrow)"/><use href="#g"/></svg>` + `<style>.label{font-family:var(--font-text)}</style>`;
		const { el, count } = inert(html);
		expect(count).toBe(0);
		expect(Array.from(el.querySelectorAll("img")).map((i) => i.getAttribute("src"))).toEqual([data, "app://local/vault/e.png", "Pics/a.png"]);
		expect(el.querySelector("span.internal-embed")?.getAttribute("src")).toBe("c.png");
		expect(el.querySelector(`a[href="${R}/page"]`)).not.toBeNull();
		expect(el.querySelector("rect")?.getAttribute("fill")).toBe("url(#g)");
		expect(el.querySelector("use")?.getAttribute("href")).toBe("#g");
		expect(el.querySelector("style")).not.toBeNull();
	});

	it("a <style> that fetches becomes text", () => {
		const { el } = inert(`<style>@import "${R}/s.css"; p{background:url(${R}/st.png)}</style><p>x</p>`);
		expect(el.querySelector("style")).toBeNull();
		expect(el.querySelector("p")?.textContent).toBe("x");
	});

	it("with remote images allowed, <img> keeps its address and every other loader is still neutralised", () => {
		const { el } = inert(`<img src="${R}/ok.png"><iframe src="${R}/f"></iframe><video poster="${R}/v.png"></video>`, true);
		expect(el.querySelector("img")?.getAttribute("src")).toBe(`${R}/ok.png`);
		expect(el.querySelector("iframe")).toBeNull();
		expect(el.querySelector("video")?.hasAttribute("poster")).toBe(false);
	});

	it("cssLoads: url() to a remote or unclear address, image-set, @import and escapes load; #refs and plain CSS do not", () => {
		for (const css of [`url(${R}/x)`, `URL( '//${HOST}/x' )`, `url("http:x")`, `image-set("x.png" 1x)`, `@import "x.css"`, `u\\72l(x)`, `-webkit-image-set(url(a) 1x)`]) expect(cssLoads(css), css).toBe(true);
		for (const css of ["url(#arrow)", "color: red; font-family: var(--font-text)", "transform: rotate(45deg)", "url(data:image/png;base64,AAAA)"]) expect(cssLoads(css), css).toBe(false);
	});
});
