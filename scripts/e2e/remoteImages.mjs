// Images in an answer and in an embedded note load nothing from their host until clicked; CSS filled in later loads nothing.

import { join } from "node:path";
import { hostileImages } from "../../tests/support/hostileImages.ts";
import { artifacts, VIEW, check, step } from "./harness.mjs";

export const name = "remoteImages";
/** @param {import("./harness.mjs").Harness} h */
export async function run({ page, model, attackerOrigin, attackerRequests }) {
	await step("images in an answer load nothing from their host until clicked", async () => {
		const hostile = Object.values(hostileImages(attackerOrigin)).join("\n\n");
		model.queue({ tokens: `Here are the pictures.\n\n${hostile}\n\nYour clipping:\n\n![[Tracked page]]\n\nThat is all.`.split(/(?=\n)/), tokensPerSecond: 400 });
		await page.fill(`${VIEW} .discover-chat-input`, "Show me the pictures.");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		await page.waitForFunction(() => document.querySelector(".discover-chat-send")?.getAttribute("aria-label") === "Send message" && (document.querySelector(".discover-chat-messages")?.textContent ?? "").includes("That is all."), null, { timeout: 10000 });
		// Time for anything that would load to reach the server.
		await page.waitForTimeout(1000);
		const answer = page.locator(`${VIEW} .discover-chat-message-assistant`).last();
		const placeholders = await answer.locator(".discover-chat-remote-image").count();
		const host = new URL(attackerOrigin).host;
		check(placeholders > 0 && (await answer.locator("button.discover-chat-remote-image").first().textContent()) === `Image from ${host.split(":")[0]} — load`, `remote images show as "Image from host — load" (${placeholders} placeholders)`);
		check(attackerRequests.length === 0, `no request reached the images' host while the answer rendered (${attackerRequests.length}: ${attackerRequests.slice(0, 5).join(", ")})`);
		const embedded = answer.locator(".internal-embed.is-loaded");
		check((await embedded.count()) === 1 && (await embedded.textContent()).includes("Clipped words.") && (await embedded.locator("button.discover-chat-remote-image").count()) === 1, "an embedded note with a web image shows, its image as \"Image from host — load\"");
		await embedded.scrollIntoViewIfNeeded();
		const frame = await embedded.evaluate((el) => {
			const style = getComputedStyle(el);
			const h1 = el.querySelector("h1");
			const p = el.querySelector("p");
			return { border: parseFloat(style.borderInlineStartWidth), heading: h1 ? parseFloat(getComputedStyle(h1).fontSize) : 0, text: p ? parseFloat(getComputedStyle(p).fontSize) : 0 };
		});
		check(frame.border > 0 && frame.heading > 0 && frame.heading <= 1.25 * frame.text, `the embedded note sits in an embed frame, its "# Tracked page" no bigger than 1.25 × its text (border ${frame.border} px, heading ${frame.heading} px, text ${frame.text} px)`);
		await page.screenshot({ path: join(artifacts, "panel-embedded-note.png") });
		await answer.scrollIntoViewIfNeeded();
		await page.screenshot({ path: join(artifacts, "panel-remote-images.png") });

		await page.click(`${VIEW} [aria-label="Open history"]`);
		await page.waitForSelector(".discover-chat-history .discover-chat-history-item", { timeout: 5000 });
		await page.click(".discover-chat-history-item >> nth=0");
		// The answer is the chat's last message: bring it into view, where its Markdown is rendered.
		const inHistory = page.locator(".discover-chat-history-message", { hasText: "That is all." }).last();
		await inHistory.waitFor({ timeout: 5000 });
		await inHistory.scrollIntoViewIfNeeded();
		await page.waitForSelector(".discover-chat-history-messages .discover-chat-remote-image", { timeout: 5000 });
		await page.locator(".discover-chat-history-messages .discover-chat-remote-image").last().scrollIntoViewIfNeeded();
		await page.waitForTimeout(1000);
		check(attackerRequests.length === 0, `no request reached the images' host from the history browser (${attackerRequests.length})`);
		await page.screenshot({ path: join(artifacts, "history-remote-images.png") });
		await page.keyboard.press("Escape");

		await answer.locator("button.discover-chat-remote-image").first().click();
		await page.waitForFunction(() => document.querySelector(".discover-chat-remote-image-loaded")?.complete === true, null, { timeout: 5000 });
		const loaded = await answer.locator("img.discover-chat-remote-image-loaded").first().evaluate((img) => img.naturalWidth);
		check(attackerRequests.length === 1 && loaded > 0, `clicking "load" loads that one image (${attackerRequests.length} request: ${attackerRequests.join(", ")})`);
	});

	await step("CSS filled into an answer after it rendered loads nothing", async () => {
		// What a plugin's post-processor might add later: the watch on the answer (inertWatch.ts) strips
		// it before the first style recalculation. (An <img>, <iframe> or <link> made by such code starts
		// its request before any observer runs; embeds of notes never reach Obsidian's filler for that.)
		const answer = page.locator(`${VIEW} .discover-chat-message-assistant .discover-chat-message-markdown`).last();
		const before = attackerRequests.length;
		await answer.evaluate((el, origin) => {
			// Rendered from HTML and imported, as a post-processor rendering HTML would add it.
			const html = `<div style="background:url(${origin}/late-bg.png);width:10px;height:10px"></div><style>p{background:url(${origin}/late-sheet.png)}</style>`;
			const parsed = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
			(el.querySelector("p") ?? el).append(...Array.from(parsed.body.childNodes, (n) => document.importNode(n, true)));
		}, attackerOrigin);
		await page.waitForTimeout(700);
		check(attackerRequests.length === before, `a style attribute and a style sheet added later fetch nothing (${attackerRequests.slice(before).join(", ") || "no request"})`);
	});
}
