// Branches: Regenerate and the arrows, editing a message, and both on a phone.

import { join } from "node:path";
import { artifacts, VIEW, shared, check, step } from "./harness.mjs";
import { labelGaps, overflows } from "./layout.mjs";

export const name = "branches";
/** Runs after "panel" (with E2E_ONLY too): its answers must start as far under their labels as the panel's. */
export const needs = ["panel"];

/** @param {import("./harness.mjs").Harness} h */
export async function run({ page, model }) {
	const idle = () => page.waitForFunction(() => document.querySelector(".discover-chat-send")?.getAttribute("aria-label") === "Send message", null, { timeout: 10000 });
	const lastAnswer = () => page.locator(`${VIEW} .discover-chat-message-assistant`).last();
	const answerText = () => lastAnswer().locator(".discover-chat-message-body").textContent();
	const position = (locator) => locator.locator(".discover-chat-branch-position").textContent({ timeout: 5000 });
	const themed = async (name, target = page) => {
		await target.screenshot({ path: join(artifacts, `${name}-light.png`) });
		await page.evaluate(() => window.e2e.app.setDarkMode(true));
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await target.screenshot({ path: join(artifacts, `${name}-dark.png`) });
		await page.evaluate(() => window.e2e.app.setDarkMode(false));
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
	};

	await step("branches: Regenerate streams a new answer, and the arrows switch between the two", async () => {
		await page.click(`${VIEW} [aria-label="New chat"]`);
		await page.waitForSelector(`${VIEW} .discover-chat-empty-prompt`, { timeout: 5000 });
		model.queue({ tokens: "Leaves are green because chlorophyll reflects green light.".split(/(?= )/), tokensPerSecond: 200 });
		await page.fill(`${VIEW} .discover-chat-input`, "Why are leaves green?");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		await page.waitForFunction(() => document.querySelector(".discover-chat-message-assistant:not(.discover-chat-message-streaming)")?.textContent?.includes("reflects green") === true, null, { timeout: 10000 });
		await idle();
		model.queue({ tokens: "In autumn chlorophyll breaks down.".split(/(?= )/), tokensPerSecond: 200 });
		await page.fill(`${VIEW} .discover-chat-input`, "And in autumn?");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		await page.waitForFunction(() => document.querySelectorAll(".discover-chat-message-assistant:not(.discover-chat-message-streaming)").length === 2, null, { timeout: 10000 });
		await idle();
		check((await answerText())?.includes("breaks down") === true, "the first answer to the second question is shown");

		model.queue({ tokens: "Autumn leaves show their yellow carotenoids once the chlorophyll fades.".split(/(?= )/), tokensPerSecond: 40 });
		await lastAnswer().hover();
		await lastAnswer().locator(".discover-chat-regenerate").click();
		await page.waitForFunction(() => (document.querySelector(".discover-chat-message-streaming")?.textContent ?? "").length > 0, null, { timeout: 8000 });
		check((await page.locator(`${VIEW} .discover-chat-message-assistant`).count()) === 2, "the new answer streams in place of the old one");
		await page.waitForFunction(() => document.querySelector(".discover-chat-message-last .discover-chat-message-body")?.textContent?.includes("carotenoids") === true, null, { timeout: 10000 });
		await idle();
		check((await answerText())?.includes("carotenoids") === true, "the regenerated answer is shown");
		check((await position(lastAnswer())) === "2 / 2", "the arrows say 2 / 2");
		const prev = lastAnswer().locator(".discover-chat-branch-prev");
		const next = lastAnswer().locator(".discover-chat-branch-next");
		check((await prev.getAttribute("aria-label")) === "Previous version" && (await next.isDisabled()), "the arrows are labelled, and Next is disabled at the end");
		await page.mouse.move(5, 5);
		await page.waitForTimeout(200);
		const branchGaps = await labelGaps(page);
		check(branchGaps.length >= 2 && branchGaps.every((g) => Math.abs(g - shared.panelLabelGap) <= 1), `every answer's text starts as far under its label as in panel-light, streamed or not (${branchGaps.join(", ")} px; panel-light ${shared.panelLabelGap} px)`);
		await themed("branch-arrows");
		await prev.click();
		await page.waitForFunction(() => document.querySelector(".discover-chat-message-last .discover-chat-message-body")?.textContent?.includes("breaks down") === true, null, { timeout: 5000 });
		check((await position(lastAnswer())) === "1 / 2", "Previous shows the first answer, 1 / 2");
		check(await lastAnswer().locator(".discover-chat-branch-prev").isDisabled(), "Previous is disabled at the first answer");
		await lastAnswer().locator(".discover-chat-branch-next").click();
		await page.waitForFunction(() => document.querySelector(".discover-chat-message-last .discover-chat-message-body")?.textContent?.includes("carotenoids") === true, null, { timeout: 5000 });
		check((await position(lastAnswer())) === "2 / 2", "Next brings the regenerated answer back");
	});

	await step("branches: editing the second message sends the edited text on the branch, and the old one stays reachable", async () => {
		const second = page.locator(`${VIEW} .discover-chat-message-user`).nth(1);
		await second.hover();
		await second.locator(".discover-chat-edit-message").click();
		const box = second.locator(".discover-chat-edit-input");
		await box.waitFor({ timeout: 5000 });
		check((await box.inputValue()) === "And in autumn?", "the edit box holds the message");
		await box.fill("And in winter?");
		await page.waitForTimeout(100);
		await themed("branch-edit");
		model.queue({ tokens: "In winter many trees have dropped their leaves.".split(/(?= )/), tokensPerSecond: 200 });
		await box.press("Control+Enter");
		await page.waitForFunction(() => document.querySelector(".discover-chat-message-last .discover-chat-message-body")?.textContent?.includes("dropped their leaves") === true, null, { timeout: 10000 });
		await idle();
		const request = model.lastChatRequest();
		const users = (request?.messages ?? []).filter((m) => m.role === "user").map((m) => m.content);
		check(users.length === 2 && users[0].includes("Why are leaves green?") && users[1].includes("And in winter?"), `the request holds the first question and the edited one (${users.map((u) => JSON.stringify(u.slice(-40))).join(", ")})`);
		check(!JSON.stringify(request?.messages ?? []).includes("autumn"), "the request holds nothing of the old branch");
		const edited = page.locator(`${VIEW} .discover-chat-message-user`).nth(1);
		check((await position(edited)) === "2 / 2", "the edited message has arrows, 2 / 2");
		await edited.locator(".discover-chat-branch-prev").click();
		await page.waitForFunction(() => document.querySelectorAll(".discover-chat-message-user")[1]?.textContent?.includes("And in autumn?") === true, null, { timeout: 5000 });
		check((await answerText())?.includes("carotenoids") === true, "Previous on the message brings back the old branch with its answer");
		await page.locator(`${VIEW} .discover-chat-message-user`).nth(1).locator(".discover-chat-branch-next").click();
		await page.waitForFunction(() => document.querySelectorAll(".discover-chat-message-user")[1]?.textContent?.includes("And in winter?") === true, null, { timeout: 5000 });
	});

	await step("branches on a phone, 390 px: the arrows and the edit box fit", async () => {
		await page.setViewportSize({ width: 390, height: 844 });
		await page.evaluate(() => document.body.classList.add("is-mobile"));
		await page.waitForTimeout(200);
		const parts = [VIEW, `${VIEW} .discover-chat-messages`, `${VIEW} .discover-chat-branch-nav`];
		let over = await overflows(page, parts);
		check(over.length === 0, `phone: the arrows fit (${over.join("; ") || "none"})`);
		await themed("phone-branch-arrows");
		const second = page.locator(`${VIEW} .discover-chat-message-user`).nth(1);
		await second.locator(".discover-chat-edit-message").click();
		await second.locator(".discover-chat-edit-input").waitFor({ timeout: 5000 });
		over = await overflows(page, [...parts.slice(0, 2), `${VIEW} .discover-chat-edit`]);
		check(over.length === 0, `phone: the edit box fits (${over.join("; ") || "none"})`);
		await themed("phone-branch-edit");
		await second.locator(".discover-chat-edit-input").press("Escape");
		check((await page.locator(`${VIEW} .discover-chat-edit`).count()) === 0, "Escape closes the edit box");
		await page.evaluate(() => document.body.classList.remove("is-mobile"));
		await page.setViewportSize({ width: 1280, height: 800 });
	});
}
