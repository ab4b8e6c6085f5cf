// Sources added with @, [[ and a drop; their fits; the needle passage reaches the model; the Sources line.

import { join } from "node:path";
import { artifacts, VIEW, HARBOUR_LOG, check, step } from "./harness.mjs";
import { highlightedRows } from "./layout.mjs";

export const name = "sources";
/** @param {import("./harness.mjs").Harness} h */
export async function run({ page, model }) {
	await step("sources: two notes added with @, one dropped; the chips show their fits; the needle reaches the model; the Sources line shows what was sent", async () => {
		const chips = `${VIEW} .discover-chat-source-chip`;
		const choose = async (typed, label) => {
			await page.fill(`${VIEW} .discover-chat-input`, typed);
			const option = page.locator(`${VIEW} .discover-chat-source-option`, { hasText: label }).first();
			await option.waitFor({ timeout: 3000 });
			const options = await page.locator(`${VIEW} .discover-chat-source-option-name`).allTextContents();
			const index = options.indexOf(label);
			check(index >= 0, `the suggester offers “${label}” for “${typed}” (${options.join(" | ")})`);
			for (let i = 0; i < index; i++) await page.press(`${VIEW} .discover-chat-input`, "ArrowDown");
			await page.press(`${VIEW} .discover-chat-input`, "Enter");
		};
		await choose("@harbour", "Harbour log");
		await choose("[[terms", "Terms");
		// A note dragged from the file explorer: its obsidian:// URI in text/plain.
		await page.evaluate((vault) => {
			const data = new DataTransfer();
			data.setData("text/plain", `obsidian://open?vault=${encodeURIComponent(vault)}&file=${encodeURIComponent("Notes/Tides.md")}`);
			const target = document.querySelector(".discover-chat-input");
			target.dispatchEvent(new DragEvent("dragover", { bubbles: true, cancelable: true, dataTransfer: data }));
			target.dispatchEvent(new DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: data }));
		}, "Test vault");
		await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 3 && [...document.querySelectorAll(`${sel} .discover-chat-source-chip-fit`)].length === 3, chips, { timeout: 5000 });
		const names = await page.locator(`${chips} .discover-chat-source-chip-name`).allTextContents();
		const fits = await page.locator(`${chips} .discover-chat-source-chip-fit`).allTextContents();
		check(JSON.stringify(names) === JSON.stringify(["Harbour log", "Glossary", "Tides"]), `the chips name the two notes added with @ and the dropped one (${names.join(", ")})`);
		check(/^Excerpts, \d{1,2}%$/.test(fits[0] ?? "") && fits[1] === "Whole" && fits[2] === "Whole", `the chips show their fits (${fits.join(" | ")})`);
		check((await page.inputValue(`${VIEW} .discover-chat-input`)) === "", "the mentions left the input");
		for (const theme of ["light", "dark"]) {
			if (theme === "dark") await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
			await page.locator(`${VIEW} .discover-chat-sources`).screenshot({ path: join(artifacts, `source-chips-${theme}.png`) });
			await page.locator(`${VIEW} .discover-chat-composer`).evaluate((el) => el.scrollIntoView());
		}
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
		await page.fill(`${VIEW} .discover-chat-input`, "@");
		await page.waitForSelector(`${VIEW} .discover-chat-source-option`, { timeout: 2000 });
		await page.hover(`${VIEW} .discover-chat-source-option >> nth=2`);
		const lit = await highlightedRows(page, `${VIEW} .discover-chat-source-option`);
		check(lit === 1, `the @ list highlights one row, the one under the pointer (${lit} highlighted)`);
		const offered = await page.locator(`${VIEW} .discover-chat-source-option`).allTextContents();
		const own = await page.evaluate(() => [window.e2e.plugin.settings.sessionsFolder, window.e2e.plugin.settings.agentsFolder]);
		// The test vault's "Discover/" holds only Discover's own folders: it is not offered either.
		check(!offered.some((o) => o.startsWith("Discover/") || own.some((f) => o.includes(`${f}/`))), `the @ list offers none of Discover's own folders (${own.join(", ")}), the folder around them or their notes (${offered.join(" | ")})`);
		const cutNames = await page.evaluate((view) => [...document.querySelectorAll(`${view} .discover-chat-source-option-name`)].filter((n) => n.scrollWidth > n.clientWidth + 1).map((n) => n.textContent), VIEW);
		check(cutNames.length === 0, `no @ row's name is cut short (${cutNames.join(", ") || "none"})`);
		const icons = await page.locator(`${VIEW} .discover-chat-source-option .discover-chat-source-option-icon svg`).count();
		check(icons === offered.length, `every @ row has its kind's icon (${icons} of ${offered.length})`);
		await page.screenshot({ path: join(artifacts, "source-suggester-light.png") });
		await page.press(`${VIEW} .discover-chat-input`, "Escape");

		model.queue({ tokens: "The code word is MARIGOLD-SEVEN.".split(/(?= )/), tokensPerSecond: 200 });
		await page.fill(`${VIEW} .discover-chat-input`, "What is the lighthouse keeper's code word?");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		await page.waitForFunction(() => document.querySelector(".discover-chat-send")?.getAttribute("aria-label") === "Send message" && (document.querySelector(".discover-chat-messages")?.textContent ?? "").includes("The code word is"), null, { timeout: 10000 });
		const sent = model.lastChatRequest();
		// This turn's sources travel with the person's message, the last one of the request.
		const last = (sent?.messages ?? []).at(-1)?.content ?? "";
		check(last.includes("MARIGOLD-SEVEN"), "the needle passage from the end of the long note reached the model");
		check(last.includes("Stroma: the fluid") && last.includes("The tide turns"), "the two whole notes reached the model");
		check(!last.includes(HARBOUR_LOG), "the long note was fitted, not sent whole");
		const line = page.locator(`${VIEW} .discover-chat-message-assistant`).last().locator(".discover-chat-sources-line");
		await line.waitFor({ timeout: 3000 });
		const listed = await line.locator(".discover-chat-sources-names").textContent();
		check(["Harbour log", "Glossary", "Tides"].every((n) => listed?.includes(n)), `the Sources line lists the notes (${listed})`);
		// The minimum share: the small active note goes whole beside the long added note, which
		// takes the rest of the room (it read "Not included: budget full" before).
		const activeFit = await page.locator(`${VIEW} .discover-chat-context-fit`).textContent();
		check(listed?.includes("Photosynthesis") === true && activeFit === "Whole note", `the small active note goes whole beside the long note (sources: ${listed}; its chip: ${activeFit})`);
		await line.locator(".discover-chat-sources-toggle").click();
		await line.locator(".discover-chat-source-passages").first().waitFor({ timeout: 3000 });
		const shown = await line.textContent();
		check(shown?.includes("MARIGOLD-SEVEN") === true && /\d[\d,]* of [\d,]+ tokens/.test(shown ?? ""), "expanded, it shows the passages that were sent and the tokens");
		await line.scrollIntoViewIfNeeded();
		await page.screenshot({ path: join(artifacts, "sources-line-light.png") });
		await page.evaluate(() => window.e2e.app.setDarkMode(true));
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await page.screenshot({ path: join(artifacts, "sources-line-dark.png") });
		await page.evaluate(() => window.e2e.app.setDarkMode(false));
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
		// The next steps work without these notes.
		for (let i = 0; i < 3; i++) await page.locator(`${chips} .discover-chat-source-chip-remove`).first().click();
	});
}
