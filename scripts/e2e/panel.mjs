// The empty chat, the header's model menu, an answer streamed then stopped, a complete answer with the header and contrast checks, a message's actions and an answer's info popover (which sets the prices the later scenarios show).

import { join } from "node:path";
import { artifacts, VIEW, shared, check, step, words } from "./harness.mjs";
import { contrasts, headerLayout, labelGaps, messageLayout } from "./layout.mjs";

export const name = "panel";
/** @param {import("./harness.mjs").Harness} h */
export async function run({ page, model }) {
	await step("an empty chat shows the model, example prompts, the note's fit and the commands", async () => {
		await page.waitForSelector(`${VIEW} .discover-chat-empty-prompt`, { timeout: 5000 });
		const where = await page.locator(`${VIEW} .discover-chat-empty-model`).textContent();
		check(where === "e2e-model · Ollama on this computer", `the empty chat names the model and where it runs (${where})`);
		const prompts = await page.locator(`${VIEW} .discover-chat-empty-prompt`).allTextContents();
		check(prompts.length === 3 && prompts.every((p) => p.includes("Photosynthesis")), `the example prompts are about the note (${prompts.join(" | ")})`);
		const fit = await page.locator(`${VIEW} .discover-chat-empty-fit`).textContent();
		check(fit === "All of “Photosynthesis” fits.", `the empty chat says how much of the note fits (${fit})`);
		check((await page.locator(`${VIEW} .discover-chat-empty-command`).count()) >= 3, "the empty chat lists the / commands");
		await page.waitForTimeout(200);
		await page.screenshot({ path: join(artifacts, "panel-empty-light.png") });
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await page.screenshot({ path: join(artifacts, "panel-empty-dark.png") });
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
	});

	await step("the header's model opens a menu of the server's models", async () => {
		await page.click(`${VIEW} .discover-chat-model`);
		await page.waitForSelector(".menu .menu-item", { timeout: 5000 });
		const items = await page.locator(".menu .menu-item").allTextContents();
		// The agents come first (the default agent, created on first use), then the server's models.
		check(items.join(",") === "Agents,Default,Models,e2e-model,llama3.2,qwen3:8b,Refresh list", `the menu lists the agents, the server's models and Refresh (${items.join(", ")})`);
		await page.screenshot({ path: join(artifacts, "model-menu-light.png") });
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await page.screenshot({ path: join(artifacts, "model-menu-dark.png") });
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
		// The checked items are the agent and the model in use: choosing the model again changes nothing and closes the menu.
		await page.click(".menu .menu-item.mod-checked >> nth=1");
		check((await page.locator(".menu").count()) === 0, "choosing closes the menu");
		check((await page.locator(`${VIEW} .discover-chat-model-name`).textContent()) === "e2e-model", "the header still shows the model in use");
	});

	await step("send a message and watch it stream, then Stop", async () => {
		model.queue({ tokens: words(600), tokensPerSecond: 60 });
		await page.fill(`${VIEW} .discover-chat-input`, "Explain photosynthesis step by step.");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		// The answer grows on screen in steps: wait until three different, growing lengths were seen
		// (a 10 s answer; up to 8 s to see them), rather than sampling at fixed times.
		const lengths = await page
			.waitForFunction(
				() => {
					const seen = (window.e2eLengths ??= []);
					const now = document.querySelector(".discover-chat-message-assistant .discover-chat-message-body")?.textContent?.length ?? 0;
					if (now > (seen.at(-1) ?? 0)) seen.push(now);
					return seen.length >= 3 ? seen : false;
				},
				null,
				{ timeout: 8000, polling: 100 },
			)
			.then((h) => h.jsonValue())
			.catch(() => page.evaluate(() => window.e2eLengths ?? []));
		check(lengths.length >= 3 && lengths.at(-1) > lengths[0], `the answer streams in (lengths ${lengths.join(", ")})`);
		check((await page.getAttribute(`${VIEW} .discover-chat-send`, "aria-label")) === "Stop answer", "Send becomes Stop while streaming");
		const coming = await page.evaluate(() => {
			const blocks = document.querySelectorAll(".discover-chat-message-streaming .discover-chat-message-block");
			const last = blocks[blocks.length - 1]?.lastElementChild;
			const caret = last ? getComputedStyle(last, "::after").content : "none";
			const status = document.querySelector(".discover-chat-status");
			return { caret, status: status && status.checkVisibility() ? status.textContent : "" };
		});
		check(coming.caret !== "none" && coming.status !== "", `the answer shows it is coming: a caret at its end and "${coming.status}"`);
		await page.screenshot({ path: join(artifacts, "panel-streaming.png") });
		await page.click(`${VIEW} .discover-chat-send`);
		await page.waitForSelector(`${VIEW} .discover-chat-message-stopped`, { timeout: 5000 });
		check((await page.getAttribute(`${VIEW} .discover-chat-send`, "aria-label")) === "Send message", "Stop turns the button back into Send");
		check(await model.sawClientClose(), "Stop closed the connection to the server");
	});

	await step("a second, complete answer", async () => {
		model.queue({ tokens: "Chlorophyll absorbs **red** and **blue** light and reflects green, like a zebra crossing reflects headlights.".split(/(?= )/), tokensPerSecond: 200 });
		await page.fill(`${VIEW} .discover-chat-input`, "Why are leaves green?");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		await page.waitForFunction(() => document.querySelector(".discover-chat-send")?.getAttribute("aria-label") === "Send message", null, { timeout: 10000 });
		const last = await page.locator(`${VIEW} .discover-chat-message-assistant`).last().textContent();
		check(last?.includes("zebra crossing") === true, "the complete answer is shown");
		await page.waitForTimeout(300);
		const lines = await page.evaluate(() => {
			const left = (sel) => document.querySelector(sel)?.getBoundingClientRect().left ?? NaN;
			const height = (sel) => document.querySelector(sel)?.getBoundingClientRect().height ?? NaN;
			return {
				title: left(".discover-chat-title-text"),
				message: left(".discover-chat-message-assistant .discover-chat-message-body"),
				send: height(".discover-chat-send"),
				input: height(".discover-chat-input"),
			};
		});
		check(Math.abs(lines.title - lines.message) <= 1, `the title lines up with the messages (title at ${lines.title} px, messages at ${lines.message} px)`);
		check(Math.abs(lines.send - lines.input) <= 1, `Send is as tall as the one-line input (${lines.send} px, input ${lines.input} px)`);
		const gaps = await labelGaps(page);
		check(gaps.length === 2 && Math.abs(gaps[0] - gaps[1]) <= 1, `the streamed and the stopped answer start as far under their labels (${gaps.join(", ")} px)`);
		shared.panelLabelGap = gaps[0];
		const header = await headerLayout(page);
		check(header.titleGap <= 8 && header.modelTop >= header.titleBottom - 1, `the title takes the free space (${header.titleGap} px left before the buttons), the model on the line under it`);
		check(header.label.includes("Explain photosynthesis step by step."), `hovering the title shows it whole (${header.label})`);
		for (const theme of ["light", "dark"]) {
			if (theme === "dark") await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
			const ratios = await contrasts(page, [`${VIEW} .discover-chat-meter`, `${VIEW} .discover-chat-context-fit`, `${VIEW} .discover-chat-context-name`]);
			const low = Object.entries(ratios).filter(([, r]) => r !== null && r < 4.5);
			check(low.length === 0, `the meter and the note chip meet WCAG AA in ${theme} (${Object.values(ratios).join(", ")} : 1)`);
		}
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
		await page.screenshot({ path: join(artifacts, "panel-light.png") });
		await page.evaluate(() => window.e2e.app.setDarkMode(true));
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await page.screenshot({ path: join(artifacts, "panel-dark.png") });
		await page.evaluate(() => window.e2e.app.setDarkMode(false));
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
	});

	await step("a message's actions show on hover, take no row of their own, and move nothing", async () => {
		const answer = page.locator(`${VIEW} .discover-chat-message-assistant`).last();
		await page.mouse.move(5, 5);
		await page.waitForTimeout(200);
		const before = await messageLayout(page);
		check(before.blankRows.length === 0, `no message ends in a blank row for its hidden actions (${before.blankRows.join("; ") || "none"})`);
		const uneven = Object.entries(before.gaps).filter(([, g]) => Math.max(...g) - Math.min(...g) > 1);
		check(Object.keys(before.gaps).length > 0 && uneven.length === 0, `the gaps between messages are even (${JSON.stringify(before.gaps)} px)`);
		await answer.hover();
		await page.waitForTimeout(200);
		const hovered = await messageLayout(page);
		check(JSON.stringify(hovered.tops) === JSON.stringify(before.tops), "showing the actions on hover moves nothing");
		const labels = await answer.locator(".discover-chat-message-actions button:visible").evaluateAll((els) => els.map((el) => el.getAttribute("aria-label")));
		const wanted = ["Copy message", "Insert into the note", "Copy as a quote callout", "Answer details", "Regenerate", "Delete turn"];
		check(labels.length === wanted.length && wanted.every((l) => labels.includes(l)), `the last answer shows Copy, Insert, Copy as a quote callout, Answer details, Regenerate and Delete turn (saw ${labels.join(", ")})`);
		await page.screenshot({ path: join(artifacts, "message-actions-light.png") });
		// From the keyboard: focusing an action shows the row.
		await page.mouse.move(5, 5);
		await page.locator(`${VIEW} .discover-chat-message-user .discover-chat-copy`).first().focus();
		await page.waitForTimeout(200);
		const shown = await page.evaluate(() => getComputedStyle(document.activeElement.closest(".discover-chat-message-meta")).opacity);
		check(shown === "1", `a focused action is shown (opacity ${shown})`);
		await page.evaluate(() => window.e2e.app.setDarkMode(true));
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await answer.hover();
		// The row fades in over 120 ms: shot before it ends, the icons were caught half faded.
		await page.waitForTimeout(200);
		const darkShown = await answer.locator(".discover-chat-message-meta").evaluate((el) => getComputedStyle(el).opacity);
		check(darkShown === "1", `dark: the hovered answer's actions are fully shown (opacity ${darkShown})`);
		await page.screenshot({ path: join(artifacts, "message-actions-dark.png") });
		await page.evaluate(() => window.e2e.app.setDarkMode(false));
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
	});

	await step("an answer's info popover shows its tokens, the time to the first token, the speed, the model and its cost", async () => {
		// Prices as the person would enter them in settings (kept for the rest of the run: the history and settings show them).
		await page.evaluate(async () => {
			Object.assign(window.e2e.plugin.settings, { modelPrices: [{ model: "e2e-model", input: 2.5, output: 10 }], priceCurrency: "USD" });
			await window.e2e.plugin.saveSettings();
		});
		const answer = page.locator(`${VIEW} .discover-chat-message-assistant`).last();
		await answer.hover();
		await answer.locator(".discover-chat-answer-info").click();
		const popover = page.locator(`${VIEW} .discover-chat-stats-popover`);
		await popover.waitFor({ timeout: 5000 });
		const text = (await popover.textContent()) ?? "";
		check(/Prompt tokens120 \(reported by the server\)/.test(text), `the popover shows the prompt tokens the server reported (saw "${text}")`);
		check(/Answer tokens\d+ \(reported by the server\)/.test(text) && /Time to first token/.test(text) && /tokens\/s/.test(text), "the popover shows the answer tokens, the time to the first token and the speed");
		check(text.includes("e2e-model"), "the popover names the model");
		check(/Cost\$0\.\d+/.test(text) && /This chat[\d.,K]+ tokens · \$0\.\d+/.test(text), "with prices, the popover shows the answer's cost and the chat's total");
		const box = await popover.boundingBox();
		const viewport = page.viewportSize();
		check(box !== null && viewport !== null && box.x >= 0 && box.x + box.width <= viewport.width, `the popover stays on screen (${JSON.stringify(box)})`);
		await page.screenshot({ path: join(artifacts, "answer-info-light.png") });
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await page.screenshot({ path: join(artifacts, "answer-info-dark.png") });
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
		await page.keyboard.press("Escape");
		check((await popover.count()) === 0, "Escape closes the popover");
		const focused = await page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
		check(focused === "Answer details", `the focus goes back to the info button (on ${focused})`);
		await page.mouse.move(5, 5);
	});
}
