// The panel opened from the ribbon; the first run with no model chosen; the model server chosen in settings (every other scenario starts from here).

import { join } from "node:path";
import { artifacts, VIEW, check, step, waitReady } from "./harness.mjs";
import { headerLayout } from "./layout.mjs";

export const name = "setup";
/** @param {import("./harness.mjs").Harness} h */
export async function run({ page, model }) {
	await step("open the panel from the ribbon", async () => {
		await page.click('.side-dock-ribbon-action[aria-label="Open chat"]');
		await page.waitForSelector(`${VIEW} .discover-chat-input`, { timeout: 5000 });
		await waitReady(page);
		check((await page.locator(`${VIEW} .discover-chat-context-name`).textContent()) === "Photosynthesis", "the context chip shows the active note");
	});

	await step("first run, no model chosen: a prompt to pick one, the text kept, nothing sent", async () => {
		await page.fill(`${VIEW} .discover-chat-input`, "What happens in the stroma?");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		const offer = await page.waitForSelector(`${VIEW} .discover-chat-offer`, { timeout: 5000 });
		check((await offer.textContent())?.includes("Open settings") === true, "the prompt has a button that opens the settings");
		check((await page.inputValue(`${VIEW} .discover-chat-input`)) === "What happens in the stroma?", "the text stays in the input");
		check((await page.locator(`${VIEW} .discover-chat-error`).count()) === 0 && model.lastChatRequest() === undefined, "no error card, and nothing reached the server");
		const header = await headerLayout(page);
		check(header.agent === "" && header.model === "Choose a model" && !header.modelCut, `before a model is picked the header reads "Choose a model", whole and alone (${header.agent} · ${header.model})`);
		await page.screenshot({ path: join(artifacts, "panel-no-model.png") });
	});

	// Point the plugin at the local model server, as a person would in settings.
	const configured = await page.evaluate(async (url) => {
		const plugin = window.e2e.plugin;
		if (!plugin?.settings || !plugin.saveSettings) return false;
		Object.assign(plugin.settings, { provider: "ollama", baseUrl: url, model: "e2e-model" });
		await plugin.saveSettings();
		return true;
	}, model.url);
	check(configured, "the plugin exposes settings and saveSettings");

	await step("a model chosen in settings shows at once, and the prompt to pick one goes away", async () => {
		await page.fill(`${VIEW} .discover-chat-input`, "");
		check((await page.locator(`${VIEW} .discover-chat-offer`).count()) === 0, "the prompt to pick a model is gone");
		check((await page.locator(`${VIEW} .discover-chat-model-name`).textContent()) === "e2e-model", "the header shows the model just chosen");
	});
}
