// The panel in other languages (E2E_LANGS="ja,zh" by default; "" skips): the same views, shot, and
// measured for text that overflows its row or is clipped in a button.

import { join } from "node:path";
import process from "node:process";
import { artifacts, VIEW, check, step, expectConsoleErrors, words } from "./harness.mjs";
import { missingGlyphs, overflowing } from "./layout.mjs";

export const name = "languages";

/** @param {import("./harness.mjs").Harness} h */
export async function run(h) {
	for (const language of (process.env.E2E_LANGS ?? "ja,zh").split(",").filter(Boolean)) {
		await step(`the panel in ${language}: empty chat, streaming, error, history and settings, nothing overflowing`, () => languagePass(h, language));
	}
}

/** Boots a fresh page with Obsidian set to `language` and shoots the main views in it. */
async function languagePass({ context, pageUrl, manifest, model }, language) {
	const lp = await context.newPage();
	try {
		await lp.goto(pageUrl);
		await lp.evaluate((opts) => window.e2e.boot(opts), {
			files: { "Notes/Photosynthesis.md": "# Photosynthesis\n\nPlants turn light, water and carbon dioxide into sugar and oxygen.\n" },
			adapterFiles: {},
			manifest,
			open: "Notes/Photosynthesis.md",
			language,
		});
		await lp.evaluate(async (url) => {
			Object.assign(window.e2e.plugin.settings, { provider: "ollama", baseUrl: url, model: "e2e-model" });
			await window.e2e.plugin.saveSettings();
		}, model.url);
		// The ribbon's label is translated: the plugin's one ribbon action, found by place.
		await lp.locator(".side-dock-ribbon-action").last().click();
		await lp.waitForSelector(`${VIEW} .discover-chat-empty-prompt`, { timeout: 5000 });
		await lp.waitForTimeout(300);
		const shots = [];
		const tofu = await missingGlyphs(lp);
		check(tofu.length === 0, `${language}: the panel's own text renders in a font that has its glyphs (${tofu.length ? `missing: ${tofu.join(" ")}; install a CJK font, e.g. Debian's fonts-noto-cjk` : "none missing"})`);
		const shoot = async (name, opts = {}) => {
			const path = join(artifacts, `lang-${language}-${name}.png`);
			await lp.screenshot({ path, ...opts });
			const over = await overflowing(lp);
			check(over.length === 0, `${language} ${name}: no text overflows its row or is clipped in a button${over.length ? ` (${over.join("; ")})` : ""}`);
			shots.push(path);
		};
		await shoot("empty");

		model.queue({ tokens: words(300), tokensPerSecond: 40 });
		await lp.fill(`${VIEW} .discover-chat-input`, language.startsWith("zh") ? "请解释光合作用。" : "光合成について説明してください。");
		await lp.press(`${VIEW} .discover-chat-input`, "Enter");
		await lp.waitForFunction(() => (document.querySelector(".discover-chat-message-streaming .discover-chat-message-body")?.textContent?.length ?? 0) > 200, null, { timeout: 8000 });
		// The "Assistant" label is drawn bold, not only asked to be: its ink against the same text at 400.
		const label = await lp.evaluate((view) => {
			const el = document.querySelector(`${view} .discover-chat-message-role-assistant`);
			const style = getComputedStyle(el);
			const ink = (weight) => {
				const canvas = document.createElement("canvas");
				canvas.width = 400;
				canvas.height = 60;
				const g = canvas.getContext("2d");
				g.font = `${weight} ${style.fontSize} ${style.fontFamily}`;
				g.fillText(el.textContent, 2, 40);
				let sum = 0;
				for (const [i, v] of g.getImageData(0, 0, 400, 60).data.entries()) if (i % 4 === 3) sum += v;
				return sum;
			};
			return { text: el.textContent, shown: ink(style.fontWeight), regular: ink(400) };
		}, VIEW);
		check(label.shown > label.regular * 1.15, `${language}: the "${label.text}" label keeps its bold (ink ${label.shown} against ${label.regular} at regular weight)`);
		await shoot("streaming");
		await lp.click(`${VIEW} .discover-chat-send.discover-chat-stop`);
		await lp.waitForSelector(`${VIEW} .discover-chat-send:not(.discover-chat-stop)`, { timeout: 5000 });

		expectConsoleErrors(`the server answers 500 on purpose (${language})`, /status of 500/);
		model.queue({ status: 500, error: "model runner crashed" });
		await lp.fill(`${VIEW} .discover-chat-input`, "?");
		await lp.press(`${VIEW} .discover-chat-input`, "Enter");
		await lp.waitForSelector(`${VIEW} .discover-chat-error`, { timeout: 5000 });
		await shoot("error");

		await lp.evaluate(() => window.e2e.view().showHistory());
		await lp.waitForSelector(".discover-chat-history .discover-chat-history-item", { timeout: 5000 });
		await lp.click(".discover-chat-history-item");
		await lp.waitForSelector(".discover-chat-history-message", { timeout: 5000 });
		await shoot("history");
		await lp.keyboard.press("Escape");

		await lp.evaluate(() => {
			const tab = window.e2e.harness.openSettingTab(window.e2e.app, "discover-chat");
			tab.containerEl.id = "e2e-settings";
		});
		await lp.waitForSelector("#e2e-settings .setting-item", { timeout: 5000 });
		await lp.waitForTimeout(300);
		await shoot("settings", { fullPage: true });
	} finally {
		await lp.close();
	}
}
