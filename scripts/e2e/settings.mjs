// The settings tab: a changed setting saved, the tab's layout.

import { join } from "node:path";
import { artifacts, check, step } from "./harness.mjs";

export const name = "settings";
/** Runs after "panel" (with E2E_ONLY too): the price rows come from the prices it sets. */
export const needs = ["panel"];

/** @param {import("./harness.mjs").Harness} h */
export async function run({ page }) {
	await step("change a setting in the settings tab", async () => {
		const opened = await page.evaluate(() => {
			const tab = window.e2e.harness.openSettingTab(window.e2e.app, "discover-chat");
			tab.containerEl.id = "e2e-settings";
			tab.containerEl.classList.add("vertical-tab-content");
			document.querySelector(".workspace")?.setAttribute("hidden", "");
			return true;
		});
		check(opened, "the settings tab opens");
		const input = page.locator("#e2e-settings .setting-item", { hasText: /recent messages to keep/i }).first().locator("input");
		await input.fill("9");
		await input.dispatchEvent("change");
		// Saving is asynchronous: wait for data.json to say 9 (up to 5 s) instead of a fixed pause.
		const saved = await page
			.waitForFunction(async () => {
				const text = await window.e2e.harness.readPluginDataText(window.e2e.app, "discover-chat");
				return text !== null && JSON.parse(text).recentMessagesToKeep === 9 ? text : false;
			}, null, { timeout: 5000 })
			.then((h) => h.jsonValue())
			.catch(() => null);
		check(saved !== null && JSON.parse(saved).recentMessagesToKeep === 9, "a changed setting is saved to data.json");
		const layout = await page.evaluate(() => {
			const root = document.getElementById("e2e-settings");
			const rect = (el) => el?.getBoundingClientRect();
			const row = (name) => Array.from(root.querySelectorAll(".setting-item")).find((r) => r.querySelector(".setting-item-name")?.textContent === name);
			const box = rect(row("System prompt")?.querySelector("textarea"));
			const reset = rect(row("System prompt")?.querySelector(".extra-setting-button"));
			const folder = rect(row("Chats folder")?.querySelector("input"));
			const use = root.querySelector(".discover-chat-setting-use-context");
			const test = rect(row("Test connection")?.querySelector("button"));
			return {
				topBorder: getComputedStyle(root.querySelector(".setting-item")).borderTopWidth,
				boxEnd: box?.right,
				rowEnd: folder?.right,
				resetInside: !!box && !!reset && reset.left >= box.left && reset.right <= box.right && reset.top >= box.top && reset.bottom <= box.bottom,
				useHeight: use && use.checkVisibility() ? rect(use).height : null,
				buttonHeight: test?.height,
			};
		});
		check(layout.topBorder === "0px", `no divider above the first setting (border ${layout.topBorder})`);
		const inputs = await page.evaluate(() => {
			const root = document.getElementById("e2e-settings");
			const widths = (sel) => [...new Set(Array.from(root.querySelectorAll(sel)).filter((el) => el.checkVisibility()).map((el) => Math.round(el.getBoundingClientRect().width)))];
			const model = Array.from(root.querySelectorAll(".setting-item")).find((r) => r.querySelector(".setting-item-name")?.textContent === "Model");
			return {
				// Prices are numbers typed as text (decimal commas): they count as numbers.
				numbers: widths(".setting-item-control input[type=number], .setting-item-control input.discover-chat-price-value"),
				texts: widths(".setting-item-control input[type=text]:not(.discover-chat-price-value), .setting-item-control input[type=url]"),
				url: Array.from(root.querySelectorAll("input")).find((i) => i.getAttribute("aria-label") === "Base URL")?.type,
				modelControls: Array.from(model?.querySelectorAll("select, input") ?? []).filter((el) => el.checkVisibility()).map((el) => el.tagName.toLowerCase()),
				// The add-a-price row's words: squeezed beside its four fields they read two words a line.
				priceDescShare: (() => {
					const add = root.querySelector(".discover-chat-price-add");
					const info = add?.querySelector(".setting-item-info");
					return add && info ? Math.round((100 * info.getBoundingClientRect().width) / add.getBoundingClientRect().width) : null;
				})(),
			};
		});
		check(inputs.priceDescShare !== null && inputs.priceDescShare >= 60, `the add-a-price row's description is not squeezed beside its fields (${inputs.priceDescShare}% of the row)`);
		check(inputs.numbers.length === 1 && inputs.texts.length === 1 && inputs.url === "url", `inputs are consistent: numbers ${inputs.numbers.join("/")} px, text ${inputs.texts.join("/")} px, Base URL a ${inputs.url} field`);
		check(inputs.modelControls.length === 1, `the Model row is one control (${inputs.modelControls.join(" + ")})`);
		check(layout.resetInside && Math.abs(layout.boxEnd - layout.rowEnd) <= 2, `the system prompt box reaches the row's end (${layout.boxEnd} px, inputs end at ${layout.rowEnd} px), its reset inside it`);
		check(layout.useHeight === null || Math.abs(layout.useHeight - layout.buttonHeight) <= 2, `"Use the model's context length" stays on one line (${layout.useHeight ?? "hidden"} px, a button ${layout.buttonHeight} px)`);
		await page.screenshot({ path: join(artifacts, "settings-tab.png"), fullPage: true });
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await page.screenshot({ path: join(artifacts, "settings-tab-dark.png"), fullPage: true });
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
		await page.evaluate(() => {
			document.getElementById("e2e-settings")?.remove();
			document.querySelector(".workspace")?.removeAttribute("hidden");
		});
	});
}
