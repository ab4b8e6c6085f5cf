// The browser test's MCP screens (called from the browser test): a tool of an MCP server in the chat
// (its permission card names the server, then the done card), an image result, a long-running tool's
// progress on its card then Stop, and a server's form (elicitation) on its call's card; Settings → MCP servers with a server
// list (an HTTP stub connected, a command that is not installed failed with why, a disabled one),
// the add-by-form with its problems shown at their fields, bad JSON pasted, and the secret confirm
// for a pasted GITHUB_TOKEN; on desktop and a 390 px phone, light and dark.
//
// Chromium has no child_process: the connected server is the Streamable HTTP stub (with CORS, as the
// page is on another port), and the page is given a child_process whose spawn fails as Node's does
// for a command that is not installed (ENOENT), so the failed row shows the real client's message.
import { join } from "node:path";
import { startHttpStub, STUB_CHART_PNG } from "../../tests/support/mcpHttpStub.ts";
import * as harness from "./harness.mjs";
import { overflows as overflowsOf } from "./layout.mjs";

export const name = "mcp";
// The panel opened and laid out as the person has it (its width on a phone included).
export const needs = ["panel"];

/** @param {import("./harness.mjs").Harness} h */
export async function run({ page, model }) {
	const { check, artifacts, VIEW, step } = harness;
	await step("MCP: a server's tool asked and run in the chat, its progress, its form; the server list (connected, failed with why, disabled), the add form, bad JSON, the secret confirm; desktop and phone, light and dark", () => mcpSteps({ page, model, check, artifacts, VIEW, overflows: overflowsOf }));
}

const SECRET_PASTE = JSON.stringify({ mcpServers: { github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_TOKEN: "ghp_abcdefghijklmnop1234" } } } }, null, 2);
const BAD_JSON = '{"mcpServers": {"a": {"command": "npx",}}';

/**
 * @param {{ page: import("playwright-core").Page, model: { queue(a: unknown): void, lastChatRequest(): any }, check: (ok: boolean, what: string) => boolean, artifacts: string, VIEW: string, overflows: (page: unknown, selectors: string[]) => Promise<string[]> }} t
 */
export async function mcpSteps({ page, model, check, artifacts, VIEW, overflows }) {
	const stub = await startHttpStub({ cors: true });
	const themed = async (name, shoot) => {
		await shoot(`${name}-light`);
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await shoot(`${name}-dark`);
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
	};
	const idle = () => page.waitForFunction(() => document.querySelector(".discover-chat-send")?.getAttribute("aria-label") === "Send message", null, { timeout: 10000 });
	// A phone as the other scenarios make one: 390 px and Obsidian's is-mobile body class.
	const phone = async () => {
		await page.setViewportSize({ width: 390, height: 844 });
		await page.evaluate(() => document.body.classList.add("is-mobile"));
		await page.waitForTimeout(200);
	};
	const desktop = async () => {
		await page.setViewportSize({ width: 1280, height: 800 });
		await page.evaluate(() => document.body.classList.remove("is-mobile"));
	};
	try {
		await page.evaluate(
			async ({ url }) => {
				// A child_process for the page whose spawn fails as Node's does for a missing command.
				window.process ??= { versions: { node: "e2e" }, env: { PATH: "/usr/bin", SHELL: "/bin/sh" }, platform: "linux" };
				const fail = (code, message) => Object.assign(new Error(message), { code });
				const childProcess = {
					spawn(command) {
						const handlers = {};
						const child = {
							stdin: null,
							stdout: null,
							stderr: null,
							pid: undefined,
							once(event, fn) {
								handlers[event] = fn;
								if (event === "error") window.setTimeout(() => fn(fail("ENOENT", `spawn ${command} ENOENT`)), 5);
								return child;
							},
							on() {
								return child;
							},
							kill() {
								return false;
							},
						};
						return child;
					},
					execFile(_file, _args, _opts, callback) {
						window.setTimeout(() => callback(fail("ENOENT", "no login shell in the browser"), "", ""), 1);
					},
				};
				const plain = window.e2e.require;
				window.e2e.plainRequire = plain;
				window.e2e.require = (id) => (id === "node:child_process" || id === "child_process" ? childProcess : plain(id));
				const plugin = window.e2e.plugin;
				plugin.settings.mcpServers = [
					{ name: "stub", enabled: true, url },
					{ name: "notes-search", enabled: true, command: "mcp-server-not-installed", args: ["--stdio"] },
					{ name: "time", enabled: false, command: "uvx", args: ["mcp-server-time"] },
				];
				await plugin.saveSettings();
			},
			{ url: stub.url("/mcp") },
		);

		// 1. A tool of the stub in the chat: asked on a card that names the server, then done.
		if ((await page.locator(`${VIEW} .discover-chat-message`).count()) > 0) await page.click(`${VIEW} [aria-label="New chat"]`);
		model.queue({ calls: [{ name: "stub__echo", arguments: { text: "Hello from the chat", repeat: 2 } }] });
		model.queue({ tokens: "The stub server echoed your text.".split(/(?= )/), tokensPerSecond: 200 });
		await page.fill(`${VIEW} .discover-chat-input`, "Echo my greeting through the stub server.");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		await page.waitForSelector(`${VIEW} .discover-tool-card .discover-permission`, { timeout: 15000 });
		const offered = (model.lastChatRequest()?.tools ?? []).map((t) => t.function?.name);
		check(offered.includes("stub__echo"), `the request offers the HTTP stub's tools as server__tool (${offered.filter((n) => n.includes("__")).join(", ")})`);
		check(!offered.some((n) => n.startsWith("time__") || n.startsWith("notes-search__")), "a disabled server and a failed one offer no tools");
		const origin = await page.locator(`${VIEW} .discover-tool-card .discover-mcp-origin`).first().textContent();
		check(origin === "Tool “echo” of MCP server “stub”", `the permission card names the tool and its server (${origin})`);
		const args = await page.locator(`${VIEW} .discover-tool-card .discover-mcp-args`).first().textContent();
		check(args?.includes("Hello from the chat") === true && !args.includes("{"), `the arguments show as a form, not JSON (${args})`);
		const over = await overflows(page, [`${VIEW} .discover-tool-card`, `${VIEW} .discover-permission`, `${VIEW} .discover-mcp-args`]);
		check(over.length === 0, `the MCP permission card fits the panel (${over.join("; ") || "none"})`);
		const shot = (name) => page.locator(`${VIEW} .discover-chat-messages`).screenshot({ path: join(artifacts, `${name}.png`) });
		await themed("mcp-permission", shot);
		await phone();
		const phoneOver = await overflows(page, [VIEW, `${VIEW} .discover-tool-card`, `${VIEW} .discover-permission`, `${VIEW} .discover-permission-actions`, `${VIEW} .discover-mcp-args`]);
		check(phoneOver.length === 0, `phone: the MCP permission card fits (${phoneOver.join("; ") || "none"})`);
		await themed("phone-mcp-permission", (name) => page.screenshot({ path: join(artifacts, `${name}.png`) }));
		await desktop();
		const buttons = await page.locator(`${VIEW} .discover-permission button`).allTextContents();
		const once = buttons.find((b) => /^(Allow once|Accept)$/.test(b.trim()));
		check(once !== undefined, `the card offers to allow the call once (${buttons.join(" | ")})`);
		await page.click(`${VIEW} .discover-permission button:has-text("${once ?? "Allow once"}")`);
		await idle();
		const state = await page.locator(`${VIEW} .discover-tool-card`).last().evaluate((e) => [...e.classList].find((c) => c.startsWith("is-") && c !== "is-write"));
		check(state === "is-done", `the MCP card is done after Allow (${state})`);
		const echoed = stub.log.posted.filter((m) => m.method === "tools/call").map((m) => m.params?.name);
		check(echoed.join(",") === "echo", `the stub got exactly one call, after the person allowed it (${echoed.join(",") || "none"})`);
		const title = await page.locator(`${VIEW} .discover-tool-card-title`).last().textContent();
		check(title?.includes("stub") === true, `the done card keeps its server in its title (${title})`);
		await themed("mcp-tool-card", shot);
		await phone();
		const phoneDone = await overflows(page, [VIEW, `${VIEW} .discover-tool-card`, `${VIEW} .discover-tool-card-title`]);
		check(phoneDone.length === 0, `phone: the done MCP card fits (${phoneDone.join("; ") || "none"})`);
		await themed("phone-mcp-tool-card", (name) => page.screenshot({ path: join(artifacts, `${name}.png`) }));
		await desktop();

		// 1b. An image result: saved with the chat's attachments, shown on its card, sent to the model.
		// (The test vault's files are served to the page as the app serves a vault's resources.)
		await harness.serveVaultResources(page);
		model.queue({ calls: [{ name: "stub__chart", arguments: {} }] });
		model.queue({ tokens: "The chart shows sales rising each quarter.".split(/(?= )/), tokensPerSecond: 200 });
		await page.fill(`${VIEW} .discover-chat-input`, "Chart the sales by quarter.");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		await page.waitForSelector(`${VIEW} .discover-tool-card .discover-permission`, { timeout: 15000 });
		await page.click(`${VIEW} .discover-permission button:has-text("${once ?? "Allow once"}")`);
		await idle();
		const chartCard = page.locator(`${VIEW} .discover-tool-card`).last();
		await chartCard.locator(".discover-tool-card-images img").first().waitFor({ timeout: 5000 }).catch(() => undefined);
		const chartWidth = await chartCard.evaluate((card) => {
			const img = card.querySelector(".discover-tool-card-images img");
			return img instanceof HTMLImageElement && img.complete ? img.naturalWidth : 0;
		});
		check(chartWidth === 48, `the MCP tool's image result shows on its card, loaded from the vault (${chartWidth} px wide)`);
		const sentChart = JSON.stringify(model.lastChatRequest()?.messages ?? []).includes(STUB_CHART_PNG.slice(0, 60));
		check(sentChart, "the image result went to the model with the request after the call");
		await themed("mcp-image-result", shot);
		await phone();
		const phoneChart = await overflows(page, [VIEW, `${VIEW} .discover-tool-card`, `${VIEW} .discover-tool-card-images`]);
		check(phoneChart.length === 0, `phone: the MCP image result's card fits (${phoneChart.join("; ") || "none"})`);
		await themed("phone-mcp-image-result", (name) => page.screenshot({ path: join(artifacts, `${name}.png`) }));
		await desktop();

		// 1c. A long-running tool: its progress notifications show on its card while it runs; Stop ends
		// it at once (notifications/cancelled to the server) and frees the chat.
		model.queue({ calls: [{ name: "stub__progress", arguments: {} }] });
		await page.fill(`${VIEW} .discover-chat-input`, "Rebuild the search index of my notes.");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		await page.waitForSelector(`${VIEW} .discover-tool-card .discover-permission`, { timeout: 15000 });
		await page.click(`${VIEW} .discover-permission button:has-text("${once ?? "Allow once"}")`);
		const progressCard = page.locator(`${VIEW} .discover-tool-card`).last();
		await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].pop()?.querySelector(".discover-mcp-progress")?.textContent?.startsWith("2 of 4") === true, `${VIEW} .discover-tool-card`, { timeout: 10000 }).catch(() => undefined);
		const progressText = await progressCard.locator(".discover-mcp-progress").textContent().catch(() => null);
		check(progressText === "2 of 4 — Indexing headings and links", `the running MCP card shows the server's progress (${progressText})`);
		const bar = await progressCard.locator(".discover-mcp-progress progress").evaluate((el) => `${el.getAttribute("value")}/${el.getAttribute("max")}`).catch(() => "none");
		check(bar === "2/4", `the progress bar says how far (${bar})`);
		const progressOver = await overflows(page, [`${VIEW} .discover-tool-card`, `${VIEW} .discover-mcp-progress`]);
		check(progressOver.length === 0, `the progress card fits the panel (${progressOver.join("; ") || "none"})`);
		await themed("mcp-progress", shot);
		await phone();
		const phoneProgress = await overflows(page, [VIEW, `${VIEW} .discover-tool-card`, `${VIEW} .discover-mcp-progress`]);
		check(phoneProgress.length === 0, `phone: the progress card fits (${phoneProgress.join("; ") || "none"})`);
		await themed("phone-mcp-progress", (name) => page.screenshot({ path: join(artifacts, `${name}.png`) }));
		await desktop();
		const stoppedAt = Date.now();
		await page.click(`${VIEW} .discover-chat-send`);
		await idle();
		const freedIn = Date.now() - stoppedAt;
		check(freedIn < 2000, `Stop frees the chat while the server is still working (${freedIn} ms)`);
		const cancelled = stub.log.posted.some((m) => m.method === "notifications/cancelled");
		check(cancelled, "Stop told the server: notifications/cancelled");
		const progressState = await progressCard.evaluate((e) => [...e.classList].find((c) => c.startsWith("is-") && c !== "is-write"));
		check(progressState === "is-failed", `the stopped card says it did not finish (${progressState})`);

		// 1d. The server asks the person for values during a call (elicitation): a form on the call's
		// card naming the server, its message as plain text, labelled fields with the defaults filled;
		// a problem is said at its field; Send returns what was typed, to the server only.
		model.queue({ calls: [{ name: "stub__elicit", arguments: {} }] });
		model.queue({ tokens: "The meeting is in your work calendar.".split(/(?= )/), tokensPerSecond: 200 });
		await page.fill(`${VIEW} .discover-chat-input`, "Put our weekly sync in my calendar.");
		await page.press(`${VIEW} .discover-chat-input`, "Enter");
		await page.waitForSelector(`${VIEW} .discover-tool-card .discover-permission`, { timeout: 15000 });
		await page.click(`${VIEW} .discover-permission button:has-text("${once ?? "Allow once"}")`);
		await page.waitForSelector(`${VIEW} .discover-tool-card .discover-elicit form`, { timeout: 10000 });
		const form = page.locator(`${VIEW} .discover-tool-card .discover-elicit`).last();
		const asker = await form.locator(".discover-elicit-title").textContent();
		check(asker === "The MCP server “stub” asks:", `the form says which server asks (${asker})`);
		const labels = await form.locator(".discover-elicit-name").allTextContents();
		check(labels.join("|") === "Meeting titleRequired|Invite fromRequired|Calendar|Length in minutes|Remind me 10 minutes before|Agenda", `each field has its label and required mark (${labels.join(" | ")})`);
		const values = await form.locator(".discover-elicit-control").evaluateAll((els) => els.map((e) => (e.type === "checkbox" ? String(e.checked) : e.value)));
		check(values.join("|") === "Weekly sync||work|30|true|true|false|false", `the server's defaults are filled in (${values.join(" | ")})`);
		const formOver = await overflows(page, [`${VIEW} .discover-tool-card`, `${VIEW} .discover-elicit`, `${VIEW} .discover-elicit-actions`]);
		check(formOver.length === 0, `the form fits the panel (${formOver.join("; ") || "none"})`);
		// The card from its top: which server asks, then its message and the fields.
		const toCardTop = () => form.evaluate((el) => el.closest(".discover-tool-card")?.scrollIntoView({ block: "start" }));
		await toCardTop();
		await themed("mcp-elicit", shot);
		// Send with the required address missing: said at its field, nothing sent.
		await form.locator('button:has-text("Send")').click();
		const problem = await form.locator(".discover-elicit-error:not(.discover-chat-hidden)").allTextContents();
		check(problem.join("|") === "Fill this in.", `a missing required field is said at the field (${problem.join(" | ")})`);
		check(stub.log.elicited === undefined, "nothing went to the server while a field needs a change");
		await phone();
		const phoneElicit = await overflows(page, [VIEW, `${VIEW} .discover-tool-card`, `${VIEW} .discover-elicit`, `${VIEW} .discover-elicit-actions`, `${VIEW} .discover-elicit-field`]);
		check(phoneElicit.length === 0, `phone: the form fits (${phoneElicit.join("; ") || "none"})`);
		const small = await form.locator(".discover-elicit-button, input.discover-elicit-control:not([type=checkbox]), select.discover-elicit-control").evaluateAll((els) => els.filter((e) => e.getBoundingClientRect().height < 43.5).map((e) => `${e.tagName.toLowerCase()} ${Math.round(e.getBoundingClientRect().height)} px`));
		check(small.length === 0, `phone: the form's controls are touch-sized (${small.join(", ") || "all ≥ 44 px"})`);
		await form.locator(".discover-elicit-error:not(.discover-chat-hidden)").first().scrollIntoViewIfNeeded();
		await themed("phone-mcp-elicit", (name) => page.screenshot({ path: join(artifacts, `${name}.png`) }));
		// The form's end on a phone: the summary of what to fix and the three buttons.
		await form.locator(".discover-elicit-actions").scrollIntoViewIfNeeded();
		await themed("phone-mcp-elicit-actions", (name) => page.screenshot({ path: join(artifacts, `${name}.png`) }));
		await desktop();
		await form.locator("input[type=email]").fill("ada@example.com");
		await form.locator("select").selectOption("home");
		// The multi-select: a third choice is one too many, said at the group; two are sent.
		await form.locator('.discover-elicit-check:has-text("Review") input').check();
		await form.locator('.discover-elicit-check:has-text("Demo") input').check();
		await form.locator('button:has-text("Send")').click();
		const tooMany = await form.locator(".discover-elicit-field.is-multi .discover-elicit-error:not(.discover-chat-hidden)").allTextContents();
		check(tooMany.length === 1 && tooMany[0] !== "", `three of at most two choices is said at the group (${tooMany.join(" | ")})`);
		check(stub.log.elicited === undefined, "nothing went to the server while the choices need a change");
		await form.locator(".discover-elicit-field.is-multi").scrollIntoViewIfNeeded();
		await themed("mcp-elicit-multi", shot);
		await form.locator('.discover-elicit-check:has-text("Demo") input').uncheck();
		await form.locator('button:has-text("Send")').click();
		await idle();
		const back = JSON.stringify(stub.log.elicited ?? null);
		check(back === JSON.stringify({ action: "accept", content: { title: "Weekly sync", email: "ada@example.com", calendar: "home", minutes: 30, remind: true, agenda: ["plan", "review"] } }), `Send returned what was typed to the server (${back})`);
		const record = await form.locator(".discover-elicit-record").textContent();
		check(record === "Sent to the server.", `the card keeps a record of the answer (${record})`);
		await toCardTop();
		await themed("mcp-elicit-sent", shot);

		// 2. Settings → MCP servers: the list with its three states.
		await page.evaluate(() => {
			const tab = window.e2e.harness.openSettingTab(window.e2e.app, "discover-chat");
			tab.containerEl.id = "e2e-settings";
			tab.containerEl.classList.add("vertical-tab-content");
			document.querySelector(".workspace")?.setAttribute("hidden", "");
		});
		await page.waitForSelector("#e2e-settings .discover-mcp-server.is-connected", { timeout: 10000 });
		// The chat's turn started every server that is on: the missing command has failed by now.
		await page.waitForSelector("#e2e-settings .discover-mcp-server.is-failed", { timeout: 10000 });
		const rows = await page.evaluate(() =>
			[...document.querySelectorAll("#e2e-settings .discover-mcp-server")].map((r) => ({
				name: r.querySelector(".setting-item-name")?.textContent ?? "",
				state: r.querySelector(".discover-mcp-state")?.textContent ?? "",
				tools: r.querySelector(".discover-mcp-tools summary")?.textContent ?? "",
			})),
		);
		const row = (name) => rows.find((r) => r.name === name);
		check(row("stub")?.state === "Connected" && /^\d+ tools$/.test(row("stub")?.tools ?? ""), `the HTTP stub is connected with its tools (${row("stub")?.state}, ${row("stub")?.tools})`);
		check(/^Failed: .*mcp-server-not-installed.* was not found/.test(row("notes-search")?.state ?? ""), `the missing command is failed, with why (${row("notes-search")?.state})`);
		check(row("time")?.state === "Disabled", `the disabled server says so (${row("time")?.state})`);
		const section = async (name, last = ".discover-mcp-list") => {
			const box = await page.evaluate((end) => {
				const head = [...document.querySelectorAll("#e2e-settings .setting-item-heading")].find((h) => h.querySelector(".setting-item-name")?.textContent === "MCP servers");
				const a = head?.getBoundingClientRect();
				const b = document.querySelector(`#e2e-settings ${end}`)?.getBoundingClientRect();
				return a && b ? { x: 0, y: a.top + window.scrollY, width: document.documentElement.clientWidth, height: b.bottom - a.top } : null;
			}, last);
			if (box) await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true, clip: box });
		};
		await themed("mcp-settings", section);
		const settingsOver = await overflows(page, ["#e2e-settings .discover-mcp-server", "#e2e-settings .discover-mcp-state"]);
		check(settingsOver.length === 0, `the MCP server list fits (${settingsOver.join("; ") || "none"})`);

		// 3. Bad JSON: a clear message, the text kept, nothing added.
		await page.fill("#e2e-settings .discover-mcp-paste", BAD_JSON);
		await page.click("#e2e-settings button.discover-mcp-add");
		const badMessage = await page.locator("#e2e-settings .setting-item:has(.discover-mcp-paste) .discover-chat-setting-message").textContent();
		check(/^This is not valid JSON: .+ Nothing was added; your text is kept\.$/.test(badMessage ?? ""), `bad JSON: a clear message (${badMessage})`);
		check((await page.inputValue("#e2e-settings .discover-mcp-paste")) === BAD_JSON, "bad JSON: the pasted text is kept");
		await themed("mcp-paste-bad-json", (name) => section(name, ".discover-mcp-form"));

		// 4. A pasted GITHUB_TOKEN: asked before it moves to secret storage; Cancel adds nothing.
		await page.fill("#e2e-settings .discover-mcp-paste", SECRET_PASTE);
		await page.click("#e2e-settings button.discover-mcp-add");
		await page.waitForSelector("#e2e-settings .discover-mcp-confirm:not(.discover-chat-hidden)", { timeout: 5000 });
		const confirm = await page.locator("#e2e-settings .discover-mcp-confirm").textContent();
		check(confirm?.includes("GITHUB_TOKEN → secret “mcp-github-github-token”") === true, `the secret confirm names the value and its secret (${confirm})`);
		await themed("mcp-secret-confirm", (name) => section(name, ".discover-mcp-form"));
		await page.click('#e2e-settings .discover-mcp-confirm button:has-text("Cancel")');
		const count = await page.evaluate(() => window.e2e.plugin.settings.mcpServers.length);
		check(count === 3, `Cancel adds nothing (${count} servers)`);

		// 5. Add a server by form: problems at their fields, everything typed kept; fixed, it is added.
		await page.click("#e2e-settings .discover-mcp-form > summary");
		await page.fill("#e2e-settings #discover-mcp-form-name", "stub");
		await page.selectOption("#e2e-settings .discover-mcp-form-field select", "http");
		await page.fill("#e2e-settings #discover-mcp-form-url", "not a web address");
		await page.click('#e2e-settings .discover-mcp-form button:has-text("Add a header")');
		await page.fill("#e2e-settings .discover-mcp-form-value input.discover-mcp-form-key", "Authorization");
		await page.fill("#e2e-settings .discover-mcp-form-value input.discover-mcp-form-text", "Bearer abcdefghijklmnop");
		await page.click("#e2e-settings button.discover-mcp-form-submit");
		const problems = await page.locator("#e2e-settings .discover-mcp-form [role=alert]").allTextContents();
		check(problems.length === 4 && problems.at(-1)?.startsWith("Nothing was added") === true, `the form's problems show at their fields (${problems.join(" | ")})`);
		check((await page.inputValue("#e2e-settings #discover-mcp-form-url")) === "not a web address", "the form keeps what was typed");
		await themed("mcp-form-problems", (name) => section(name, ".discover-mcp-form"));
		await phone();
		const phoneForm = await overflows(page, ["#e2e-settings .discover-mcp-form", "#e2e-settings .discover-mcp-form-value", "#e2e-settings .discover-mcp-server"]);
		const wide = await page.evaluate(() => {
			const out = [];
			for (const row of document.querySelectorAll("#e2e-settings .discover-mcp-server")) {
				const edge = row.getBoundingClientRect().right;
				for (const el of row.querySelectorAll("*")) if (el.checkVisibility() && el.getBoundingClientRect().right > edge + 1) out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join(".")} ${Math.round(el.getBoundingClientRect().right - edge)} px: ${(el.textContent ?? "").slice(0, 40)}`);
			}
			return out.slice(0, 6);
		});
		if (phoneForm.length > 0) console.log(`  wider than their row: ${wide.join(" | ")}`);
		check(phoneForm.length === 0, `phone: the form and the server list fit (${phoneForm.join("; ") || "none"})`);
		await themed("phone-mcp-settings", (name) => section(name, ".discover-mcp-list"));
		await desktop();
		await page.fill("#e2e-settings #discover-mcp-form-name", "docs");
		await page.fill("#e2e-settings #discover-mcp-form-url", stub.url("/mcp"));
		await page.click('#e2e-settings .discover-mcp-form-value-message button:has-text("Move to secret storage")');
		await page.click("#e2e-settings button.discover-mcp-form-submit");
		await page.waitForFunction(() => window.e2e.plugin.settings.mcpServers.length === 4, null, { timeout: 5000 });
		const data = (await page.evaluate(() => window.e2e.harness.readPluginDataText(window.e2e.app, "discover-chat"))) ?? "";
		check(data.includes('"docs"') && !data.includes("Bearer abcdefghijklmnop"), "the form's server is saved; its token went to secret storage, not data.json");
		await themed("mcp-form-added", section);
	} finally {
		await page.evaluate(async () => {
			const plugin = window.e2e.plugin;
			const hub = await plugin.mcp();
			for (const s of plugin.settings.mcpServers) await hub.stop(s.name);
			plugin.settings.mcpServers = [];
			await plugin.saveSettings();
			document.getElementById("e2e-settings")?.remove();
			document.querySelector(".workspace")?.removeAttribute("hidden");
			if (window.e2e.plainRequire) window.e2e.require = window.e2e.plainRequire;
			if (window.process?.versions?.node === "e2e") delete window.process;
		});
		await desktop();
		await stub.close();
	}
}
