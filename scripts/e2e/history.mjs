// The history browser: search, a hit, the scroll position kept, loading a long chat.

import { join } from "node:path";
import { artifacts, VIEW, check, step } from "./harness.mjs";
import { firstCardCut, settledScrollTop } from "./layout.mjs";

export const name = "history";
/** Runs after "panel" (with E2E_ONLY too): the search finds the answer about zebra crossings. */
export const needs = ["panel"];

/** @param {import("./harness.mjs").Harness} h */
export async function run({ page, long }) {
	await step("history: search, open a hit, load a session", async () => {
		await page.click(`${VIEW} [aria-label="Open history"]`);
		await page.waitForSelector(".discover-chat-history .discover-chat-history-item", { timeout: 5000 });
		await page.keyboard.press("Escape");
		check((await page.locator(".discover-chat-history").count()) === 0, "Esc closes the history");
		await page.focus(`${VIEW} [aria-label="Open history"]`);
		await page.keyboard.press("Enter");
		await page.waitForSelector(".discover-chat-history .discover-chat-history-item", { timeout: 5000 });
		check(true, "the history opens from the keyboard");
		await page.fill(".discover-chat-history-search", "zebra");
		await page.waitForSelector(".discover-chat-history-hit", { timeout: 5000 });
		check((await page.locator(".discover-chat-history-hit").count()) === 1, "search over message text finds the one answer");
		await page.click(".discover-chat-history-hit");
		await page.waitForSelector(".discover-chat-history-message.is-highlighted", { timeout: 5000 });
		const hit = await page.locator(".discover-chat-history-hit .discover-chat-history-item-preview").textContent();
		check(!/\*\*|`/.test(hit ?? ""), `the hit's snippet is words, not Markdown ("${hit}")`);
		await page.waitForTimeout(300);
		const cut = await firstCardCut(page);
		check(cut <= 1, `no message shows cut off under the history's toolbar (${cut} px hidden)`);
		const use = await page.locator(".discover-chat-history-use").first().textContent();
		check(use === "Use as prompt", `"Use as prompt" is said in words ("${use}")`);
		await page.screenshot({ path: join(artifacts, "history-modal.png") });
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await page.screenshot({ path: join(artifacts, "history-modal-dark.png") });
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
		await page.fill(".discover-chat-history-search", "");
		await page.waitForSelector(`.discover-chat-history-item[data-session-id="${long.id}"]`, { timeout: 5000 });
		await page.click(`.discover-chat-history-item[data-session-id="${long.id}"]`);
		// The chat shown before stays on screen until the long one is loaded: wait for the long one.
		await page.waitForFunction((title) => document.querySelector(".discover-chat-history-session-title")?.textContent === title && document.querySelector(".discover-chat-history-message") !== null, long.title, { timeout: 5000 });
		// Closing and reopening keeps the chat and where it was scrolled to. Where the person ends up
		// is known only once the browser has laid out what came into view (Markdown rendered, message
		// heights measured, scroll anchoring applied), so the position is read once it has settled.
		await page.evaluate(() => {
			const el = document.querySelector(".discover-chat-history-messages");
			el.scrollTop = 3000;
		});
		const scrolledTo = await settledScrollTop(page, ".discover-chat-history-messages");
		await page.keyboard.press("Escape");
		await page.click(`${VIEW} [aria-label="Open history"]`);
		// Shown (not hidden while it is being put in place) is what the person sees.
		await page.waitForSelector(".discover-chat-history .discover-chat-history-messages:not(.is-restoring) .discover-chat-history-message", { state: "visible", timeout: 5000 });
		const restored = await page.evaluate(() => document.querySelector(".discover-chat-history-messages")?.scrollTop ?? -1);
		check(scrolledTo > 0 && Math.abs(restored - scrolledTo) <= 1, `reopening the history restores the chat's scroll position (${restored} of ${scrolledTo})`);
		await page.click('.discover-chat-history-actions button:has-text("Load")');
		await page.waitForFunction((title) => document.querySelector(".discover-chat-title")?.textContent === title, long.title, { timeout: 5000 });
		const last = await page.locator(`${VIEW} .discover-chat-message-body`).last().textContent();
		check(last?.includes("Message 999") === true, "Load shows the chosen session, scrolled to its end");
	});
}
