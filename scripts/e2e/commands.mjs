// The / command menu: a command sends the note without the history.

import { join } from "node:path";
import { artifacts, VIEW, check, step } from "./harness.mjs";
import { highlightedRows } from "./layout.mjs";

export const name = "commands";
/** @param {import("./harness.mjs").Harness} h */
export async function run({ page, model }) {
	await step("a / command sends the note without the history", async () => {
		model.queue({ tokens: "Plants make sugar from light.".split(/(?= )/), tokensPerSecond: 200 });
		await page.fill(`${VIEW} .discover-chat-input`, "/");
		await page.waitForSelector(`${VIEW} .discover-chat-command-menu:not(.discover-chat-hidden)`, { timeout: 2000 });
		const all = await page.evaluate(() => Array.from(document.querySelectorAll(".discover-chat-command")).map((c) => ({ role: c.getAttribute("role"), name: c.querySelector(".discover-chat-command-name")?.textContent, desc: c.querySelector(".discover-chat-command-desc")?.textContent ?? "" })));
		check(all.length >= 3 && all.every((c) => c.role === "option" && c.desc !== ""), `"/" lists every command with a description (${all.map((c) => c.name).join(", ")})`);
		const covered = await page.evaluate(() => {
			const menu = document.querySelector(".discover-chat-command-menu").getBoundingClientRect();
			return [".discover-chat-context-chip", ".discover-chat-context-fit", ".discover-chat-meter"].filter((sel) => {
				const el = document.querySelector(sel);
				if (!el || !el.checkVisibility()) return false;
				const r = el.getBoundingClientRect();
				return r.left < menu.right && menu.left < r.right && r.top < menu.bottom && menu.top < r.bottom;
			});
		});
		check(covered.length === 0, `the / menu covers neither the note chip nor the meter (covers: ${covered.join(", ") || "nothing"})`);
		await page.hover(`${VIEW} .discover-chat-command >> nth=1`);
		const litCommands = await highlightedRows(page, `${VIEW} .discover-chat-command`);
		check(litCommands === 1, `the / menu highlights one row, the one under the pointer (${litCommands} highlighted)`);
		await page.screenshot({ path: join(artifacts, "panel-commands-all.png") });
		await page.fill(`${VIEW} .discover-chat-input`, "/sum");
		await page.waitForFunction(() => document.querySelectorAll(".discover-chat-command").length === 1, null, { timeout: 2000 });
		await page.screenshot({ path: join(artifacts, "panel-commands.png") });
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		await page.waitForFunction(() => (document.querySelector(".discover-chat-messages")?.textContent ?? "").includes("Plants make sugar"), null, { timeout: 10000 });
		await page.waitForFunction(() => document.querySelector(".discover-chat-send")?.getAttribute("aria-label") === "Send message", null, { timeout: 10000 });
		const sent = model.lastChatRequest();
		const roles = (sent?.messages ?? []).map((m) => m.role);
		const user = (sent?.messages ?? []).filter((m) => m.role === "user").map((m) => m.content);
		// This turn's note goes in the person's message, before the request's own words.
		check(user.length === 1 && (user[0] ?? "").trimEnd().endsWith("Summarize this note."), `/summarize sends one user message and no history (roles: ${roles.join(", ")})`);
		check((user[0] ?? "").includes("Calvin cycle"), "/summarize sends the active note");
	});
}
