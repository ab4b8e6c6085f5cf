// A server error and a server that is down: the inline diagnosis, Retry without a duplicate.

import { join } from "node:path";
import { artifacts, VIEW, check, step, expectConsoleErrors, setBaseUrl, askWithServerDown } from "./harness.mjs";

export const name = "errors";
/** @param {import("./harness.mjs").Harness} h */
export async function run({ page, model }) {
	await step("errors: the diagnosis inline, Retry answers without a duplicate", async () => {
		expectConsoleErrors("the server answers 500 on purpose", /status of 500/);
		expectConsoleErrors("the server is down on purpose", /ERR_CONNECTION_REFUSED/);
		model.queue({ status: 500, error: "model runner crashed" });
		await page.fill(`${VIEW} .discover-chat-input`, "Is this retried?");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		await page.waitForSelector(`${VIEW} .discover-chat-error`, { timeout: 5000 });
		const error = await page.locator(`${VIEW} .discover-chat-error`).textContent();
		check(error?.includes("The server had a problem") === true && error.includes("model runner crashed"), "a server error shows its diagnosis and the server's words");
		model.queue({ tokens: "Yes, this is the retried answer.".split(/(?= )/), tokensPerSecond: 200 });
		await page.click(`${VIEW} .discover-chat-retry`);
		await page.waitForFunction(() => document.querySelector(".discover-chat-send")?.getAttribute("aria-label") === "Send message" && (document.querySelector(".discover-chat-messages")?.textContent ?? "").includes("retried answer"), null, { timeout: 10000 });
		const asked = await page.locator(`${VIEW} .discover-chat-message-user`, { hasText: "Is this retried?" }).count();
		check(asked === 1, `Retry does not duplicate the question (${asked} copies)`);

		// A server that is not running: the inline error carries the provider's own diagnosis.
		const saved = await askWithServerDown(page);
		const probe = await page.locator(`${VIEW} .discover-chat-error-message`).textContent();
		check(/reach|running/i.test(probe ?? ""), `a server that is down is diagnosed ("${probe}")`);
		const card = await page.locator(`${VIEW} .discover-chat-error`).evaluate((el) => ({ text: el.innerText, code: el.querySelectorAll(".discover-chat-error-message code").length }));
		check(!card.text.includes("`") && !/failed to fetch/i.test(card.text), `the error card shows no backtick and no "Failed to fetch" ("${card.text.replace(/\n/g, " / ")}")`);
		check((card.text.match(/reach/gi) ?? []).length <= 2, "the error card says it once: its title and one message");
		await page.screenshot({ path: join(artifacts, "panel-error.png") });
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await page.screenshot({ path: join(artifacts, "panel-error-dark.png") });
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
		await setBaseUrl(page, saved);
	});
}
