// A phone, 390 px wide: the panel, an answer's info, an error, the history and the settings fit.

import { join } from "node:path";
import { artifacts, VIEW, check, step, expectConsoleErrors, words, setBaseUrl, askWithServerDown } from "./harness.mjs";
import { messageLayout, overflows } from "./layout.mjs";

export const name = "phone";
/** Runs after "panel" (with E2E_ONLY too): the settings' price row comes from the prices it sets. */
export const needs = ["panel"];

/** @param {import("./harness.mjs").Harness} h */
export async function run({ page, model }) {
	await step("a phone, 390 px wide, the panel filling the screen: nothing overflows or clips", async () => {
		await page.setViewportSize({ width: 390, height: 844 });
		await page.evaluate(() => document.body.classList.add("is-mobile"));
		const shoot = async (name, selectors) => {
			const over = await overflows(page, selectors);
			check(over.length === 0, `phone, ${name}: nothing overflows or is clipped (${over.join("; ") || "none"})`);
			await page.screenshot({ path: join(artifacts, `phone-${name}-light.png`) });
			await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
			await page.screenshot({ path: join(artifacts, `phone-${name}-dark.png`) });
			await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
		};
		const panel = [VIEW, `${VIEW} .discover-chat-header`, `${VIEW} .discover-chat-messages`, `${VIEW} .discover-chat-context-row`, `${VIEW} .discover-chat-composer`, `${VIEW} .discover-chat-error`, `${VIEW} .discover-chat-empty`];
		const width = await page.locator(VIEW).evaluate((el) => el.getBoundingClientRect().width);
		check(width >= 389, `the panel fills the phone's width (${width} px)`);

		await page.click(`${VIEW} [aria-label="New chat"]`);
		await page.waitForSelector(`${VIEW} .discover-chat-empty-prompt`, { timeout: 5000 });
		await shoot("empty", panel);

		model.queue({ tokens: words(300), tokensPerSecond: 60 });
		await page.fill(`${VIEW} .discover-chat-input`, "Explain photosynthesis on a small screen.");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		await page.waitForFunction(() => (document.querySelector(".discover-chat-message-streaming .discover-chat-message-body")?.textContent ?? "").length > 80, null, { timeout: 8000 });
		await shoot("streaming", panel);
		await page.click(`${VIEW} .discover-chat-send`);
		await page.waitForSelector(`${VIEW} .discover-chat-message-stopped`, { timeout: 5000 });
		const phoneRows = await messageLayout(page);
		check(phoneRows.blankRows.length === 0, `phone: no blank row for a message's actions (${phoneRows.blankRows.join("; ") || "none"})`);
		// The stopped answer's cost, estimated, in its popover at 390 px.
		await page.locator(`${VIEW} .discover-chat-message-assistant .discover-chat-answer-info`).last().click();
		await page.waitForSelector(`${VIEW} .discover-chat-stats-popover`, { timeout: 5000 });
		// The actions fade in (120 ms): shoot once they are opaque.
		await page.waitForTimeout(200);
		const phoneInfo = (await page.locator(`${VIEW} .discover-chat-stats-popover`).textContent()) ?? "";
		check(phoneInfo.includes("(estimated)") && phoneInfo.includes("e2e-model"), `phone: a stopped answer's popover shows estimated tokens and the model (saw "${phoneInfo}")`);
		await shoot("answer-info", [...panel, `${VIEW} .discover-chat-stats-popover`]);
		await page.keyboard.press("Escape");

		expectConsoleErrors("the server is down on purpose", /ERR_CONNECTION_REFUSED/);
		const saved = await askWithServerDown(page);
		await shoot("error", panel);
		await setBaseUrl(page, saved);

		await page.click(`${VIEW} [aria-label="Open history"]`);
		await page.waitForSelector(".discover-chat-history .discover-chat-history-item", { timeout: 5000 });
		await page.click(".discover-chat-history-item >> nth=1");
		await page.waitForSelector(".discover-chat-history-message", { timeout: 5000 });
		await page.waitForTimeout(300);
		await shoot("history", [".discover-chat-history", ".discover-chat-history .modal-content", ".discover-chat-history-list", ".discover-chat-history-messages", ".discover-chat-history-session-header"]);
		const listEdge = await page.evaluate(() => {
			const list = document.querySelector(".discover-chat-history-list");
			const box = list.getBoundingClientRect();
			const cut = [...list.querySelectorAll(".discover-chat-history-item")].filter((r) => {
				const b = r.getBoundingClientRect();
				return b.top < box.bottom - 1 && b.bottom > box.bottom + 1;
			}).length;
			return { cut, mask: getComputedStyle(list).maskImage || getComputedStyle(list).webkitMaskImage };
		});
		check(listEdge.cut === 0 || (listEdge.mask !== "" && listEdge.mask !== "none"), `phone, history: a row the list's edge cuts fades out instead of showing cut in half (${listEdge.cut} cut, mask ${listEdge.mask})`);
		await page.keyboard.press("Escape");

		await page.evaluate(() => {
			const tab = window.e2e.harness.openSettingTab(window.e2e.app, "discover-chat");
			tab.containerEl.id = "e2e-settings";
			tab.containerEl.classList.add("vertical-tab-content");
			document.querySelector(".workspace")?.setAttribute("hidden", "");
		});
		await page.waitForTimeout(200);
		const settingsOver = await overflows(page, ["#e2e-settings", "#e2e-settings .setting-item", "#e2e-settings .setting-item-control"]);
		check(settingsOver.length === 0, `phone, settings: nothing overflows or is clipped (${settingsOver.join("; ") || "none"})`);
		const phoneSettings = await page.evaluate(() => {
			const root = document.querySelector("#e2e-settings");
			const name = root.querySelector("input.discover-chat-price-model");
			const row = name?.closest(".setting-item");
			const context = [...root.querySelectorAll(".setting-item")].find((r) => r.querySelector(".discover-chat-setting-use-context"));
			const use = context?.querySelector(".discover-chat-setting-use-context");
			const headings = [...root.querySelectorAll(".setting-item-heading .setting-item-name")].map((h) => h.textContent);
			const storage = [...root.querySelectorAll(".setting-item")].findIndex((r) => r.classList.contains("setting-item-heading") && r.textContent === "Storage");
			const images = [...root.querySelectorAll(".setting-item")].findIndex((r) => r.querySelector(".setting-item-name")?.textContent === "Send images from the note");
			return {
				nameShare: name && row ? Math.round((name.getBoundingClientRect().width / row.getBoundingClientRect().width) * 100) : null,
				field: context?.querySelector("input")?.value ?? "",
				use: use && use.checkVisibility() ? use.textContent : "",
				headings,
				imagesAfterStorage: storage >= 0 && images > storage,
				newAgentRow: [...root.querySelectorAll(".setting-item")].some((r) => r.querySelector(".setting-item-name")?.textContent === "New agent" && r.querySelector(".setting-item-description")?.textContent !== "" && r.querySelector("button") !== null),
			};
		});
		check(phoneSettings.nameShare !== null && phoneSettings.nameShare >= 60, `phone: the price row's model name field has a line of its own (${phoneSettings.nameShare}% of the row), its placeholder whole`);
		check(phoneSettings.use === "" || phoneSettings.use.replace(/\D/g, "") !== phoneSettings.field, `"Use N" is not offered beside a field that already says N (field ${phoneSettings.field}, offered "${phoneSettings.use}")`);
		check(phoneSettings.newAgentRow, "New agent is a setting row with its name and what it does, not a lone button");
		check(phoneSettings.headings.includes("Images") && !phoneSettings.imagesAfterStorage, `the image settings have their own heading, not under Storage (${phoneSettings.headings.join(", ")})`);
		await page.screenshot({ path: join(artifacts, "phone-settings-light.png"), fullPage: true });
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await page.screenshot({ path: join(artifacts, "phone-settings-dark.png"), fullPage: true });
		await page.evaluate(() => {
			document.body.classList.replace("theme-dark", "theme-light");
			document.getElementById("e2e-settings")?.remove();
			document.querySelector(".workspace")?.removeAttribute("hidden");
			document.body.classList.remove("is-mobile");
		});
		await page.setViewportSize({ width: 1280, height: 800 });
	});
}
