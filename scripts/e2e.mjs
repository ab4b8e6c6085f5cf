// The browser end-to-end test: `npm run test:e2e` (run through tsx so it can use the TypeScript
// test servers). Builds main.js, serves it with the in-memory Obsidian runtime to Debian's Chromium,
// drives the panel against a local Ollama-protocol server, saves screenshots and measures.
// Exits non-zero on functional failures, and on a long task of the panel's own while an answer
// streams (attributed to main.js, repeated in three runs); other timings are reported, never enforced.
//
// The harness is scripts/e2e/harness.mjs; each scenario is a file in scripts/e2e/ exporting its
// `name`, what it `needs` run before it, and `run(h)`. They run in this file's order, on one page
// whose state carries from one to the next. `E2E_ONLY=tools,branches` runs only those (after
// "setup", which opens the panel and chooses the model, and whatever they need).
import process from "node:process";
import { artifacts, boot, failures, launch } from "./e2e/harness.mjs";
import * as setup from "./e2e/setup.mjs";
import * as panel from "./e2e/panel.mjs";
import * as answers from "./e2e/answers.mjs";
import * as remoteImages from "./e2e/remoteImages.mjs";
import * as commands from "./e2e/commands.mjs";
import * as sources from "./e2e/sources.mjs";
import * as errors from "./e2e/errors.mjs";
import * as history from "./e2e/history.mjs";
import * as settings from "./e2e/settings.mjs";
import * as tools from "./e2e/tools.mjs";
import * as images from "./e2e/images.mjs";
import * as mcp from "./e2e/mcp.mjs";
import * as editor from "./e2e/editor.mjs";
import * as branches from "./e2e/branches.mjs";
import * as phone from "./e2e/phone.mjs";
import * as agents from "./e2e/agents.mjs";
import * as measure from "./e2e/measure.mjs";
import * as languages from "./e2e/languages.mjs";

/** Every scenario, in the order they run. A new one goes here, before "measure". */
const scenarios = [setup, panel, answers, remoteImages, commands, sources, errors, history, settings, tools, images, mcp, editor, branches, phone, agents, measure, languages];

const only = (process.env.E2E_ONLY ?? "").split(",").map((s) => s.trim()).filter(Boolean);
const unknown = only.filter((n) => !scenarios.some((s) => s.name === n));
if (unknown.length > 0) {
	console.error(`E2E_ONLY names no scenario: ${unknown.join(", ")}. The scenarios: ${scenarios.map((s) => s.name).join(", ")}.`);
	process.exit(2);
}
/** The scenarios to run: all, or those named with what they need (and "setup"), in the file's order. */
const chosen = new Set(only.length === 0 ? scenarios.map((s) => s.name) : ["setup", ...only]);
for (const s of [...scenarios].reverse()) if (chosen.has(s.name)) for (const n of s.needs ?? []) chosen.add(n);
const run = scenarios.filter((s) => chosen.has(s.name));
if (only.length > 0) console.log(`E2E_ONLY: ${run.map((s) => s.name).join(", ")}`);

const h = await launch();
try {
	await boot(h);
	for (const scenario of run) await scenario.run(h);
} finally {
	// A run of some scenarios prints its timings but leaves the full run's table in artifacts alone.
	await h.close({ writeTable: only.length === 0 });
}

console.log(`\nScreenshots and timings: ${artifacts}`);
if (failures.length > 0) {
	console.error(`\n${failures.length} functional check(s) failed.`);
	process.exit(1);
}
console.log("\nAll functional checks passed.");
