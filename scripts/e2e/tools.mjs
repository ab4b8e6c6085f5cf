// Vault tools: cards, the permission card and its diff, Accept, Revert, Templater marks, a phone, Stop mid-loop, the history's tool rows, the header's tools switch.

import { join } from "node:path";
import { artifacts, VIEW, check, step } from "./harness.mjs";
import { answerLayout, permissionLayout, actionsOverCards, overflows } from "./layout.mjs";

export const name = "tools";
/** @param {import("./harness.mjs").Harness} h */
export async function run({ page, model }) {
	await step("tools: the model searches, reads, then edits a note; the permission card shows the diff; Accept changes the note, Revert restores it; Stop mid-loop keeps what was said", async () => {
		const readNote = (path) => page.evaluate((p) => window.e2e.app.vault.adapter.read(p), path);
		const idle = () => page.waitForFunction(() => document.querySelector(".discover-chat-send")?.getAttribute("aria-label") === "Send message", null, { timeout: 10000 });
		const themed = async (name, fn) => {
			await fn(`${name}-light`);
			await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
			await fn(`${name}-dark`);
			await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
		};
		const shot = (name) => page.locator(`${VIEW} .discover-chat-messages`).screenshot({ path: join(artifacts, `${name}.png`) });
		await page.click(`${VIEW} [aria-label="New chat"]`);
		const before = await readNote("Notes/Tides.md");
		model.queue({ text: "Let me look in your notes.", calls: [{ name: "search_notes", arguments: { query: "tide" } }] });
		model.queue({ calls: [{ name: "read_note", arguments: { path: "Notes/Tides.md" } }] });
		model.queue({ calls: [{ name: "edit_note", arguments: { path: "Notes/Tides.md", mode: "append", text: "High tide today at 14:05." } }] });
		model.queue({ tokens: "I added today's high tide to your Tides note.".split(/(?= )/), tokensPerSecond: 200 });
		await page.fill(`${VIEW} .discover-chat-input`, "Add today's high tide to my tides note.");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		await page.waitForSelector(`${VIEW} .discover-tool-card .discover-permission .discover-permission-diff`, { timeout: 10000 });
		const offered = (model.lastChatRequest()?.tools ?? []).map((t) => t.function?.name);
		check(["search_notes", "read_note", "edit_note"].every((n) => offered.includes(n)), `the request offers the vault tools (${offered.join(", ")})`);
		const titles = await page.locator(`${VIEW} .discover-tool-card-title`).allTextContents();
		check(titles.length === 3 && titles[0].startsWith("Searched notes") && titles[1] === "Read Notes/Tides.md" && titles[2] === "Edit Notes/Tides.md", `one card per call, in the person's words (${titles.join(" | ")})`);
		check((await page.locator(`${VIEW} .discover-chat-message-tool`).count()) === 0, "tool results fold into their cards, no 'Tool result' bubbles");
		const cardOver = await overflows(page, [`${VIEW} .discover-tool-card`, `${VIEW} .discover-tool-card-title`, `${VIEW} .discover-permission`, `${VIEW} .discover-permission-actions`]);
		check(cardOver.length === 0, `the cards and the permission card fit the panel (${cardOver.join("; ") || "none"})`);
		const perm = await permissionLayout(page);
		check(perm !== null && !perm.boxed, "the permission prompt is the card's body, not a box inside the card");
		check(perm?.titleShown === 1, `the card says "${perm?.title}" once (${perm?.titleShown} times)`);
		await themed("tool-permission", shot);
		const scopes = await page.locator(`${VIEW} .discover-permission-scope option`).allTextContents();
		check(scopes.length >= 2 && scopes[0].includes("Notes/"), `"Always allow" offers where it applies, the card's folder first (${scopes.join(" | ")})`);

		await page.click(`${VIEW} .discover-permission button:has-text("Accept")`);
		await idle();
		const after = await readNote("Notes/Tides.md");
		check(after !== before && after.includes("High tide today at 14:05."), "Accept: the note changed in the vault");
		const states = await page.locator(`${VIEW} .discover-tool-card`).evaluateAll((els) => els.map((e) => [...e.classList].find((c) => c.startsWith("is-") && c !== "is-write")));
		check(states.join(",") === "is-done,is-done,is-done", `every card is done (${states.join(", ")})`);
		const answer = await page.locator(`${VIEW} .discover-chat-message-assistant`).last().textContent();
		check(answer?.includes("I added today's high tide") === true, "the answer after the calls is shown after the cards");
		const laid = await answerLayout(page);
		check(laid.gaps.length === 2 && laid.gaps.every((g) => g <= 12), `the cards follow each other at the cards' own gap, no blank between them (${laid.gaps.join(", ")} px)`);
		check(laid.rows === 1 && laid.rowBelowAll, `the answer has one action row, under its last text and its cards (${laid.rows} rows${laid.rowBelowAll ? "" : ", not last"})`);
		const covering = await actionsOverCards(page);
		check(covering.length === 0, `an answer's actions (shown on hover) cover no tool card (${covering.join("; ") || "none"})`);
		// Hovered, as in the screenshots: the answer's last text shows the answer's one action row.
		await page.locator(`${VIEW} .discover-chat-message-assistant`).last().hover();
		await page.waitForTimeout(200);
		await themed("tool-cards", shot);

		await page.click(`${VIEW} .discover-tool-card-revert`);
		await page.waitForSelector(`${VIEW} .discover-tool-card-revert-note`, { timeout: 5000 });
		check((await readNote("Notes/Tides.md")) === before, "Revert: the note has its earlier text again");
		const reverted = await page.locator(`${VIEW} .discover-tool-card-revert-note`).textContent();
		check(reverted?.startsWith("Reverted") === true, `the card says it reverted (${reverted})`);

		// A write whose text Templater would run: marked in its card, and no standing permission offered.
		model.queue({ calls: [{ name: "create_note", arguments: { path: "Notes/Daily.md", content: "# <% tp.date.now() %>\n\n<%* tR += 'x' %>\n" } }] });
		model.queue({ tokens: ["I left it."], tokensPerSecond: 200 });
		await page.fill(`${VIEW} .discover-chat-input`, "Make me a daily note template.");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		await page.waitForSelector(`${VIEW} .discover-permission .discover-permission-marks`, { timeout: 10000 });
		const marks = await page.locator(`${VIEW} .discover-permission-marks`).textContent();
		check(marks?.includes("Templater") === true, `a Templater write is marked in its card (${marks})`);
		check((await page.locator(`${VIEW} .discover-permission button:has-text("Always allow")`).count()) === 0, "a marked write offers no standing permission");
		await themed("tool-permission-marked", shot);
		await page.click(`${VIEW} .discover-permission button:has-text("Reject")`);
		// Reject opens the optional reason; Enter declines without one.
		await page.press(`${VIEW} .discover-permission-reason-input`, "Enter");
		await idle();
		check(!(await page.evaluate(() => window.e2e.app.vault.adapter.exists("Notes/Daily.md"))), "Reject: the marked note was not written");

		await page.setViewportSize({ width: 390, height: 844 });
		await page.evaluate(() => document.body.classList.add("is-mobile"));
		await page.waitForTimeout(200);
		const phoneOver = await overflows(page, [VIEW, `${VIEW} .discover-chat-header`, `${VIEW} .discover-tool-card`, `${VIEW} .discover-tool-card-title`, `${VIEW} .discover-tool-card-actions`]);
		check(phoneOver.length === 0, `phone, tool cards: nothing overflows or is clipped (${phoneOver.join("; ") || "none"})`);
		const phoneCovering = await actionsOverCards(page);
		check(phoneCovering.length === 0, `phone: an answer's actions cover no tool card (${phoneCovering.join("; ") || "none"})`);
		const phoneLaid = await answerLayout(page);
		check(phoneLaid.rows === 1 && phoneLaid.rowBelowAll, `phone: the declined write's answer has one action row, under "I left it." (${phoneLaid.rows} rows)`);
		await themed("phone-tool-cards", (name) => page.screenshot({ path: join(artifacts, `${name}.png`) }));

		// The marked write on a phone: the mark and the card fit, and no standing permission is offered.
		model.queue({ calls: [{ name: "create_note", arguments: { path: "Notes/Weekly.md", content: "# <% tp.date.now(\"YYYY-[W]ww\") %>\n\n```dataviewjs\ndv.list([1])\n```\n" } }] });
		model.queue({ tokens: ["Left as it was."], tokensPerSecond: 200 });
		await page.fill(`${VIEW} .discover-chat-input`, "Make me a weekly note template.");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		await page.waitForSelector(`${VIEW} .discover-permission .discover-permission-marks`, { timeout: 10000 });
		const phoneMarksOver = await overflows(page, [`${VIEW} .discover-permission`, `${VIEW} .discover-permission-marks`, `${VIEW} .discover-permission-actions`]);
		check(phoneMarksOver.length === 0, `phone, marked write: nothing overflows or is clipped (${phoneMarksOver.join("; ") || "none"})`);
		check((await page.locator(`${VIEW} .discover-permission button:has-text("Always allow")`).count()) === 0, "phone: a marked write offers no standing permission");
		await page.locator(`${VIEW} .discover-permission-marks`).scrollIntoViewIfNeeded();
		await themed("phone-tool-permission-marked", (name) => page.screenshot({ path: join(artifacts, `${name}.png`) }));
		await page.click(`${VIEW} .discover-permission button:has-text("Reject")`);
		await page.press(`${VIEW} .discover-permission-reason-input`, "Enter");
		await idle();
		check(!(await page.evaluate(() => window.e2e.app.vault.adapter.exists("Notes/Weekly.md"))), "phone, Reject: the marked note was not written");

		// Stop while a write waits for permission: the loop ends, what was said stays, nothing is written.
		model.queue({ text: "First I search.", calls: [{ name: "search_notes", arguments: { query: "photosynthesis" } }] });
		model.queue({ calls: [{ name: "create_note", arguments: { path: "Notes/Summary.md", content: "# Summary\n\nLight becomes sugar.\n" } }] });
		await page.fill(`${VIEW} .discover-chat-input`, "Make a summary note.");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		await page.waitForSelector(`${VIEW} .discover-permission .discover-permission-diff`, { timeout: 10000 });
		await page.waitForTimeout(300);
		const phonePerm = await permissionLayout(page);
		check(phonePerm !== null && phonePerm.bottomInView >= 0, `phone: the permission card's buttons are in view above the status line (${phonePerm?.bottomInView} px to spare)`);
		const phonePermissionOver = await overflows(page, [`${VIEW} .discover-permission`, `${VIEW} .discover-permission-diff`, `${VIEW} .discover-permission-actions`]);
		check(phonePermissionOver.length === 0, `phone, permission card: nothing overflows or is clipped (${phonePermissionOver.join("; ") || "none"})`);
		await themed("phone-tool-permission", (name) => page.screenshot({ path: join(artifacts, `${name}.png`) }));
		await page.click(`${VIEW} .discover-chat-send`);
		await idle();
		check((await page.locator(`${VIEW} .discover-permission`).count()) === 0, "Stop takes the permission card down");
		const last = await page.locator(`${VIEW} .discover-tool-card`).last().getAttribute("class");
		check(last?.includes("is-failed") === true, `the waiting call ends as failed (${last})`);
		check((await page.locator(`${VIEW} .discover-chat-messages`).textContent())?.includes("First I search.") === true, "what was said before Stop stays");
		check(!(await page.evaluate(() => window.e2e.app.vault.adapter.exists("Notes/Summary.md"))), "nothing was written");
		await page.evaluate(() => document.body.classList.remove("is-mobile"));
		await page.setViewportSize({ width: 1280, height: 800 });

		// The history names this chat's tool calls as the cards do, and a hit inside a result says so.
		await page.click(`${VIEW} [aria-label="Open history"]`);
		await page.waitForSelector(".discover-chat-history .discover-chat-history-item", { timeout: 5000 });
		await page.fill(".discover-chat-history-search", "tide");
		await page.waitForSelector(".discover-chat-history-hit .discover-chat-history-hit-tool", { timeout: 5000 });
		const toolHit = page.locator(".discover-chat-history-hit", { has: page.locator(".discover-chat-history-hit-tool") }).first();
		const toolHitMeta = await toolHit.locator(".discover-chat-history-item-meta").textContent();
		const toolHitTitle = await toolHit.locator(".discover-chat-history-hit-tool").textContent();
		check(toolHitMeta?.startsWith("In a tool result") === true && ["Searched notes for “tide”", "Read Notes/Tides.md"].includes(toolHitTitle ?? ""), `a hit inside a tool result says so and names the call ("${toolHitMeta}", "${toolHitTitle}")`);
		await toolHit.click();
		await page.waitForSelector(".discover-chat-history-message.is-highlighted", { timeout: 5000 });
		const historyRoles = await page.locator(".discover-chat-history-message .discover-chat-history-role").allTextContents();
		check(historyRoles.includes("Searched notes for “tide”") && historyRoles.includes("Read Notes/Tides.md") && !historyRoles.includes("Tool result"), `the transcript names tool results as the cards do (${historyRoles.join(" | ")})`);
		const toolRows = await page.evaluate(() => {
			const rows = [...document.querySelectorAll(".discover-chat-history-message-tool")];
			return { rows: rows.length, headings: rows.filter((r) => r.querySelector("h1, h2, h3")).length, prompts: rows.filter((r) => r.querySelector(".discover-chat-history-use")).length, quoted: rows.filter((r) => r.querySelector(".discover-chat-history-tool-result")).length };
		});
		check(toolRows.rows > 0 && toolRows.headings === 0 && toolRows.quoted === toolRows.rows, `tool results are quoted text, no note's "# Tides" as a heading (${JSON.stringify(toolRows)})`);
		check(toolRows.prompts === 0, `tool rows do not offer "Use as prompt" (${toolRows.prompts} do)`);
		await page.waitForTimeout(300);
		await page.screenshot({ path: join(artifacts, "history-tool-rows-light.png") });
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await page.screenshot({ path: join(artifacts, "history-tool-rows-dark.png") });
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
		await page.fill(".discover-chat-history-search", "");
		await page.keyboard.press("Escape");

		// The header's tools switch: off, the meter drops the tool definitions at once; saved with the chat.
		const meterNow = () => page.evaluate((view) => Number(document.querySelector(`${view} .discover-chat-meter`)?.getAttribute("aria-valuenow")), VIEW);
		const meterOn = await meterNow();
		await page.click(`${VIEW} .discover-tools-switch`);
		await page.waitForFunction((view) => document.querySelector(`${view} .discover-tools-switch`)?.getAttribute("aria-pressed") === "false", VIEW, { timeout: 5000 });
		await page.waitForTimeout(200);
		const meterOff = await meterNow();
		check(meterOff < meterOn, `tools off: the meter leaves the tool definitions out (${meterOn} → ${meterOff} tokens)`);
		const offLook = await page.evaluate((view) => {
			const sw = document.querySelector(`${view} .discover-tools-switch`);
			const other = document.querySelector(`${view} .discover-chat-header-actions [aria-label="Open history"]`);
			return { opacity: getComputedStyle(sw).opacity, same: getComputedStyle(sw).color === getComputedStyle(other).color, struck: getComputedStyle(sw, "::after").content !== "none" };
		}, VIEW);
		check(offLook.opacity === "1" && offLook.same && offLook.struck, `tools off: the wrench looks off (struck through, full strength), not disabled (${JSON.stringify(offLook)})`);
		await themed("header-tools-off", (name) => page.locator(`${VIEW} .discover-chat-header`).screenshot({ path: join(artifacts, `${name}.png`) }));
		const toolsChat = await page.evaluate(() => window.e2e.plugin.settings.activeSessionId);
		const saved = await page.evaluate((id) => window.e2e.app.vault.adapter.read(`${window.e2e.plugin.settings.sessionsFolder}/sessions/${id}.jsonl`), toolsChat);
		check(/"type":"tools","on":false/.test(saved), "the switch is saved with the chat (a tools record)");
		await page.click(`${VIEW} .discover-tools-switch`);
		await page.waitForTimeout(200);
		check((await meterNow()) === meterOn, "tools on again: the meter counts them again");
	});
}
