// The browser end-to-end test's harness, shared by every scenario in this folder: the production
// bundle and the in-memory Obsidian page it runs in, Debian's Chromium through playwright-core, the
// local Ollama-protocol model server, the "attacker" host, the checks, and the timings table.
// The runner is scripts/e2e.mjs (`npm run test:e2e`).
import { spawnSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import http from "node:http";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { startModelServer } from "../../tests/e2e/modelServer.ts";
import { longSessionFiles } from "../../tests/e2e/fixtures.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
export const artifacts = join(root, "artifacts");
const work = join(artifacts, "e2e");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const VIEW = ".discover-chat-view";

// A long note (about 25,000 tokens) whose answer is in its last section: relevance fitting must
// send that section, not the note's first pages.
const NEEDLE = "The lighthouse keeper's code word is MARIGOLD-SEVEN.";
export const HARBOUR_LOG = [
	"# Harbour log",
	...Array.from({ length: 400 }, (_, i) => `## Day ${i + 1}\n\nThe ferry left at dawn with ${i + 3} passengers and a cargo of timber, rope and salted fish. Gulls followed the wake past the breakwater; the harbour master noted calm water, a westerly breeze and nothing out of the ordinary for the season.`),
	`## The last entry\n\n${NEEDLE} Nobody else knows it.`,
].join("\n\n");
export const failures = [];
export const perf = [];
/** What one scenario leaves for a later one: the panel's label gap, which the branches' answers must match. */
export const shared = { panelLabelGap: undefined };

export function check(ok, what) {
	console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
	if (!ok) failures.push(what);
	return ok;
}

export async function step(name, fn) {
	try {
		await fn();
	} catch (err) {
		check(false, `${name}: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
	} finally {
		expectedConsoleErrors.length = 0;
	}
}

/** Console errors a check provokes on purpose (until the step ends): printed as "expected: why". */
const expectedConsoleErrors = [];
export function expectConsoleErrors(why, ...patterns) {
	for (const pattern of patterns) expectedConsoleErrors.push({ pattern, why });
}

/**
 * What every scenario gets: the page and its browser context, the DevTools session, the model
 * server, the page's address, the manifest, the "attacker" host and the requests it saw, and the
 * 1,000 saved chats the vault starts with (`long`, set by boot).
 * @typedef {{ page: import("playwright-core").Page, context: import("playwright-core").BrowserContext, cdp: import("playwright-core").CDPSession, model: any, pageUrl: string, manifest: any, attackerOrigin: string, attackerRequests: string[], long: any, close(opts?: { writeTable?: boolean }): Promise<void> }} Harness
 */

/** Builds the plugin and the page, starts the servers and Chromium. @returns {Promise<Harness>} */
export async function launch() {
	// 1. The plugin as users get it, and the runtime for the page.
	await mkdir(work, { recursive: true });
	const built = spawnSync(process.execPath, ["esbuild.config.mjs", "production"], { cwd: root, stdio: "inherit" });
	if (built.status !== 0) {
		console.error("The production build failed.");
		process.exit(1);
	}
	await build({
		entryPoints: [join(root, "tests/e2e/page.ts")],
		bundle: true,
		format: "iife",
		platform: "browser",
		target: "es2020",
		outfile: join(work, "page.js"),
		logLevel: "warning",
	});
	const manifest = JSON.parse(await readFile(join(root, "manifest.json"), "utf8"));

	// 2. The model server and the page server.
	const model = await startModelServer();
	console.log(`model server (${model.kind}) at ${model.url}`);
	const files = {
		"/": ["text/html", '<!doctype html><html><head><meta charset="utf-8"><title>Discover e2e</title><link rel="stylesheet" href="/theme.css"><link rel="stylesheet" href="/styles.css"></head><body class="theme-light"><script src="/page.js"></script></body></html>'],
		"/main.js": ["text/javascript", join(root, "main.js")],
		"/styles.css": ["text/css", join(root, "styles.css")],
		"/theme.css": ["text/css", join(root, "tests/e2e/theme.css")],
		"/page.js": ["text/javascript", join(work, "page.js")],
	};
	const pageServer = http.createServer(async (req, res) => {
		const entry = files[(req.url ?? "/").split("?")[0]];
		if (!entry) return void res.writeHead(req.url === "/favicon.ico" ? 204 : 404).end();
		const body = entry[1].startsWith("<") ? entry[1] : await readFile(entry[1]);
		res.writeHead(200, { "content-type": `${entry[0]}; charset=utf-8` }).end(body);
	});
	await new Promise((resolve) => pageServer.listen(0, "127.0.0.1", resolve));
	const pageUrl = `http://127.0.0.1:${pageServer.address().port}/`;

	// The "attacker": a second host that images in answers point at. It must see no request until the
	// person clicks "load".
	const attackerRequests = [];
	const attacker = http.createServer((req, res) => {
		attackerRequests.push(req.url ?? "");
		res.writeHead(200, { "content-type": "image/svg+xml" }).end('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#c33"/></svg>');
	});
	await new Promise((resolve) => attacker.listen(0, "127.0.0.1", resolve));
	// Another host name than the page's (127.0.0.1), so it is a different origin, as an attacker's is.
	const attackerOrigin = `http://localhost:${attacker.address().port}`;

	// 3. Chromium.
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
	});
	const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
	const page = await context.newPage();
	page.on("pageerror", (err) => check(false, `page error: ${err.message}`));
	page.on("console", (msg) => {
		if (msg.type() !== "error") return;
		const expected = expectedConsoleErrors.find((e) => e.pattern.test(msg.text()));
		console.log(`  [page] ${expected ? `expected (${expected.why}): ` : ""}${msg.text()}`);
	});
	const cdp = await context.newCDPSession(page);

	return {
		page,
		context,
		cdp,
		model,
		pageUrl,
		manifest,
		attackerOrigin,
		attackerRequests,
		long: undefined,
		/** Writes the timings table and stops the browser and the servers. @param {{ writeTable?: boolean }} [opts] */
		async close({ writeTable = true } = {}) {
			await writePerf(writeTable);
			await browser.close();
			await model.close();
			pageServer.close();
			attacker.close();
		},
	};
}

/** Opens the page and boots the in-memory Obsidian with the test vault and the plugin. @param {Harness} h */
export async function boot(h) {
	const { page, manifest, attackerOrigin, pageUrl } = h;
	await page.goto(pageUrl);
	const long = await longSessionFiles(1000, manifestSessionsFolder(), 1000);
	const boot = await page.evaluate(
		(opts) => window.e2e.boot(opts),
		{
			files: {
				"Notes/Photosynthesis.md": "# Photosynthesis\n\nPlants turn light, water and carbon dioxide into sugar and oxygen.\n\nThe light reactions happen in the thylakoids; the Calvin cycle in the stroma.\n\nSee also [[Respiration]].\n",
				"Notes/Respiration.md": "# Respiration\n\nCells break sugar down to release energy.\n",
				"Notes/Harbour log.md": HARBOUR_LOG,
				"Notes/Glossary.md": "---\naliases: [Terms]\n---\n# Glossary\n\nStroma: the fluid inside a chloroplast.\n",
				"Notes/Tides.md": "# Tides\n\nThe tide turns twice a day.\n",
				// A clipped web page: the person's own note, with an image from the web in it. An answer
				// that embeds it must not load that image (the "attacker" host counts requests).
				"Clippings/Tracked page.md": `# Tracked page\n\nClipped words.\n\n![pixel](${attackerOrigin}/tracker.png)\n\n<iframe src="${attackerOrigin}/frame"></iframe>\n`,
			},
			adapterFiles: long.files,
			manifest,
			open: "Notes/Photosynthesis.md",
		},
	);
	perf.push([
		"Plugin `onload` until its promise settles: first load (its synchronous part) / median of 6 loads",
		`${boot.firstMs.toFixed(1)} ms (${boot.firstSyncMs.toFixed(1)} ms) / ${boot.medianMs.toFixed(1)} ms`,
		"< 5 ms",
		boot.medianMs < 5 ? "met" : "missed",
	]);
	h.long = long;
}

function manifestSessionsFolder() {
	return "Discover/Chats";
}

export function words(n) {
	const out = [];
	for (let i = 0; i < n; i++) {
		if (i > 0 && i % 60 === 0) out.push("\n\n");
		if (i > 0 && i % 250 === 0) out.push(`## Part ${i / 250}\n\n`);
		out.push(i % 17 === 0 ? ` **word${i}**` : ` word${i}`);
	}
	return out;
}

/** Points the plugin at the given server address and saves the settings. */
export async function setBaseUrl(page, url) {
	await page.evaluate(async (u) => {
		window.e2e.plugin.settings.baseUrl = u;
		await window.e2e.plugin.saveSettings();
	}, url);
}

/** Points the plugin at a server that is not running, asks, and waits for the error; returns the address it replaced. */
export async function askWithServerDown(page) {
	const saved = await page.evaluate(() => window.e2e.plugin.settings.baseUrl);
	await setBaseUrl(page, `http://127.0.0.1:${await closedPort()}`);
	await page.fill(`${VIEW} .discover-chat-input`, "Anyone there?");
	await page.press(`${VIEW} .discover-chat-input`, "Enter");
	await page.waitForFunction(() => /reach/i.test(document.querySelector(".discover-chat-error-message")?.textContent ?? ""), null, { timeout: 10000 });
	return saved;
}

/** A port nothing listens on: bound, then released. */
async function closedPort() {
	const probe = http.createServer();
	await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
	const { port } = probe.address();
	await new Promise((resolve) => probe.close(resolve));
	return port;
}

export function mb(bytes) {
	return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

export async function waitReady(page) {
	await page.waitForFunction(() => window.e2e.view()?.chatRuntime !== undefined, null, { timeout: 5000 });
}

export async function cycle(page) {
	await page.click('.side-dock-ribbon-action[aria-label="Open chat"]');
	await waitReady(page);
	await page.waitForTimeout(50);
	await page.evaluate(() => window.e2e.app.workspace.detachLeavesOfType("discover-chat-view"));
	await page.waitForTimeout(50);
}

/** Prints the timings table, and writes it to artifacts/e2e-perf.md unless told not to (a run of some scenarios only). */
async function writePerf(toFile) {
	const lines = [
		"| Measurement (Chromium, in-memory Obsidian runtime) | Result | Target | |",
		"| --- | --- | --- | --- |",
		...perf.map((r) => `| ${r.join(" | ")} |`),
	];
	const table = lines.join("\n");
	console.log(`\n${table}\n`);
	if (!toFile) return;
	await mkdir(artifacts, { recursive: true });
	await writeFile(join(artifacts, "e2e-perf.md"), `# Browser performance (npm run test:e2e)\n\n${table}\n`);
}

/**
 * Obsidian's app:// protocol serves a vault file at its resource path; a plain page cannot load the
 * runtime's app://local/… addresses. So, in this page only, the adapter's resource path for a file
 * written as bytes is a blob: URL of those bytes (what the app would serve), and any other path is
 * the runtime's own.
 */
export async function serveVaultResources(page) {
	await page.evaluate(() => {
		const adapter = window.e2e.app.vault.adapter;
		if (adapter.e2eServesResources) return;
		adapter.e2eServesResources = true;
		const urls = new Map();
		const { writeBinary, remove, getResourcePath } = adapter;
		adapter.writeBinary = async function (path, data, options) {
			await writeBinary.call(this, path, data, options);
			const type = /\.jpe?g$/i.test(path) ? "image/jpeg" : /\.png$/i.test(path) ? "image/png" : /\.webp$/i.test(path) ? "image/webp" : /\.gif$/i.test(path) ? "image/gif" : "application/octet-stream";
			urls.set(path, URL.createObjectURL(new Blob([data], { type })));
		};
		adapter.remove = async function (path) {
			await remove.call(this, path);
			urls.delete(path);
		};
		adapter.getResourcePath = function (path) {
			return urls.get(path) ?? getResourcePath.call(this, path);
		};
	});
}
