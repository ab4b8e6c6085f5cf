// A thinking model's thinking block, and an answer in Obsidian's Markdown.

import { join } from "node:path";
import { artifacts, VIEW, check, step } from "./harness.mjs";

export const name = "answers";
/** @param {import("./harness.mjs").Harness} h */
export async function run({ page, model }) {
	await step("a thinking model: its thinking streams into a block above the answer, then folds", async () => {
		// A local reasoning model served without a reasoning parser: <think>…</think> in the answer text.
		const thought = "The person asks about stomata. They open to let carbon dioxide in and water vapour out, and guard cells control them.".split(/(?= )/);
		model.queue({ tokens: ["<th", "ink>\n", ...thought, "</think>", "\n\n", ..."Stomata are **pores** in the leaf that open for gas exchange.".split(/(?= )/)], tokensPerSecond: 12 });
		await page.fill(`${VIEW} .discover-chat-input`, "What do stomata do?");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		const live = `${VIEW} .discover-chat-message-streaming details.discover-chat-thinking`;
		await page.waitForFunction((sel) => (document.querySelector(sel)?.textContent ?? "").includes("carbon dioxide"), live, { timeout: 10000 });
		const during = await page.evaluate((sel) => {
			const el = document.querySelector(sel);
			return { open: el?.open, label: el?.querySelector("summary")?.textContent, answer: el?.parentElement?.querySelector(".discover-chat-message-body")?.textContent ?? "" };
		}, live);
		check(during.open === true && during.label === "Thinking…" && !during.answer.includes("carbon"), `the thinking block is open while the model thinks (${JSON.stringify(during)})`);
		const saying = await page.evaluate(() => Array.from(document.querySelectorAll(".discover-chat-view *")).filter((el) => el.children.length === 0 && el.checkVisibility() && /^Thinking/.test(el.textContent ?? "")).length);
		check(saying === 1, `"Thinking…" is shown once (${saying} times)`);
		await page.screenshot({ path: join(artifacts, "thinking-live-light.png") });
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await page.screenshot({ path: join(artifacts, "thinking-live-dark.png") });
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
		await page.waitForFunction(() => document.querySelector(".discover-chat-send")?.getAttribute("aria-label") === "Send message", null, { timeout: 15000 });
		const after = await page.evaluate(() => {
			const answer = [...document.querySelectorAll(".discover-chat-message-assistant")].at(-1);
			const el = answer?.querySelector("details.discover-chat-thinking");
			return { open: el?.open, label: el?.querySelector("summary")?.textContent, answer: answer?.querySelector(".discover-chat-message-body")?.textContent ?? "" };
		});
		check(after.open === false && /^Thought for \d+ s$/.test(after.label ?? ""), `the block folds once the answer starts, with how long it thought ("${after.label}")`);
		check(after.answer.startsWith("Stomata are pores") && !/think|carbon/.test(after.answer), `the answer holds no <think> tags and no thinking ("${after.answer.slice(0, 60)}")`);
		await page.waitForTimeout(300);
		const foldedBorders = await page.evaluate(() => {
			const el = [...document.querySelectorAll(".discover-chat-message-assistant details.discover-chat-thinking")].at(-1);
			const s = getComputedStyle(el);
			return [s.borderLeftWidth, s.borderRightWidth, s.borderTopWidth, s.borderBottomWidth].filter((w) => w !== "0px").length;
		});
		check(foldedBorders === 0, `the folded thinking block draws no bar beside its summary (${foldedBorders} borders)`);
		await page.screenshot({ path: join(artifacts, "thinking-folded-light.png") });
		await page.click(`${VIEW} details.discover-chat-thinking summary`);
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await page.screenshot({ path: join(artifacts, "thinking-opened-dark.png") });
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
		await page.click(`${VIEW} details.discover-chat-thinking summary`);

		model.queue({ tokens: ["They also let oxygen out."], tokensPerSecond: 200 });
		await page.fill(`${VIEW} .discover-chat-input`, "Anything else?");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		await page.waitForFunction(() => (document.querySelector(".discover-chat-messages")?.textContent ?? "").includes("oxygen out"), null, { timeout: 10000 });
		await page.waitForFunction(() => document.querySelector(".discover-chat-send")?.getAttribute("aria-label") === "Send message", null, { timeout: 10000 });
		const sent = JSON.stringify(model.lastChatRequest()?.messages ?? []);
		check(sent.includes("Stomata are **pores**") && !sent.includes("guard cells"), "the next prompt carries the answer but not its thinking");
	});

	await step("an answer in Obsidian's Markdown: callouts, tables, highlighted code, links, tags, math; queries stay code", async () => {
		const answer = [
			"> [!tip] Photosynthesis in ==one line==",
			"> Light + water + CO₂ → sugar + oxygen. See [[Photosynthesis]] and #biology/plants.",
			"",
			"| Stage | Where | Makes |",
			"|:--|:--|--:|",
			"| Light reactions | Thylakoids | ATP |",
			"| Calvin cycle | Stroma | Sugar |",
			"",
			"- [x] Read the chapter",
			"- [ ] Draw the cycle",
			"",
			"```ts",
			"const yieldOf = (light: number): number => light * 0.3; // rough",
			"```",
			"",
			"```dataviewjs",
			'dv.paragraph("a query stays code")',
			"```",
			"",
			"Energy: $E = h\\nu$. Raw <span class=\"x\">HTML</span> shows as text.",
		].join("\n");
		model.queue({ tokens: answer.split(/(?=\n)/), tokensPerSecond: 400 });
		await page.fill(`${VIEW} .discover-chat-input`, "Sum it up with a table.");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		await page.waitForFunction(() => document.querySelector(".discover-chat-send")?.getAttribute("aria-label") === "Send message" && (document.querySelector(".discover-chat-messages")?.textContent ?? "").includes("shows as text"), null, { timeout: 10000 });
		const last = page.locator(`${VIEW} .discover-chat-message-assistant`).last();
		await last.locator("pre code .token.keyword").first().waitFor({ timeout: 5000 });
		check((await last.locator(".callout[data-callout=tip] .callout-title-inner").textContent()) === "Photosynthesis in one line", "a callout shows with its title");
		check((await last.locator("table tbody tr").count()) === 2, "a table shows its rows");
		check((await last.locator("pre code.language-dataviewjs").textContent()) === 'dv.paragraph("a query stays code")', "a dataviewjs block shows as code");
		check((await last.locator("a.internal-link").first().getAttribute("data-href")) === "Photosynthesis" && (await last.locator("a.tag").textContent()) === "#biology/plants", "links and tags show as Obsidian shows them");
		check((await last.locator("span.x").count()) === 0 && (await last.textContent()).includes('<span class="x">HTML</span>'), "raw HTML shows as text");
		await last.scrollIntoViewIfNeeded();
		await page.screenshot({ path: join(artifacts, "answer-markdown-light.png") });
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await page.screenshot({ path: join(artifacts, "answer-markdown-dark.png") });
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
	});
}
