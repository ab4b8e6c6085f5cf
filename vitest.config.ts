import { defineConfig } from "vitest/config";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const EXCLUDED = ["tests/e2e/**", "tests/real/**", "tests/processes/**", "node_modules/**"];
const root = (path: string): string => fileURLToPath(new URL(`./${path}`, import.meta.url));
const testsIn = (dir: string): string[] =>
	readdirSync(root(dir), { recursive: true })
		.map((f) => `${dir}/${String(f).replaceAll("\\", "/")}`)
		.filter((f) => f.endsWith(".test.ts"));
/** The engine's tests (no DOM): they keep no state in modules, globals or the clock. */
const ENGINE_DIRS = ["agents", "chat", "context", "contract", "core", "editor", "lint", "mcp", "providers", "scripts", "sessions", "settings", "tools"];
/**
 * Tests that replace a module (vi.mock: found in the file) or, in the engine, the clock: each gets
 * its own module graph, since a replaced module would stay replaced for the files after it.
 */
const OWN_MODULES = new Set(["tests/chat/ChatService.checkpoint.test.ts"]);
const UNIT_DIRS = readdirSync(root("tests")).filter((d) => !["e2e", "real", "processes"].includes(d) && !d.includes("."));
for (const f of UNIT_DIRS.flatMap((d) => testsIn(`tests/${d}`))) if (/\bvi\.mock\(/.test(readFileSync(root(f), "utf8"))) OWN_MODULES.add(f);
const SHARED = ENGINE_DIRS.flatMap((dir) => testsIn(`tests/${dir}`)).filter((f) => !OWN_MODULES.has(f));
/** Before each file: no timer, fake clock or stub of an earlier file (the files share workers). */
const FRESH_FILE = "tests/support/freshFileSetup.ts";
/** And, where files share modules, the module state of src/ and the runtime as at first import. */
const SHARED_SETUP = [FRESH_FILE, "tests/support/freshModules.ts"];

export default defineConfig({
	resolve: {
		alias: {
			// `obsidian` on npm is types only: tests run against an in-memory runtime typed against obsidian.d.ts.
			obsidian: fileURLToPath(new URL("./tests/obsidian/index.ts", import.meta.url)),
		},
	},
	test: {
		// The files each project runs are its own (projects, below).
		// tests/real needs llama.cpp built and a model: `npm run test:real` (vitest.real.config.ts).
		// tests/processes start the terminal chat and other scripts as processes: `npm run
		// test:processes` (vitest.processes.config.ts), which CI runs too.
		exclude: EXCLUDED,
		// Worker threads start faster than forked processes. One pool serves every project, and it
		// starts a worker per file unless isolate is false here: the projects below say which files
		// share their worker's modules ("engine", "dom") and which get a module graph each ("isolated").
		// vitest gives every file its own environment (a new happy-dom window) either way.
		pool: "threads",
		isolate: false,
		environment: "node",
		testTimeout: 20000,
		environmentOptions: {
			happyDOM: {
				settings: {
					// Tests never reach the network: a clicked web link does not navigate the test page,
					// and a stylesheet an attack test inserts counts as loaded without being fetched.
					navigation: { disableMainFrameNavigation: true, disableChildFrameNavigation: true, disableChildPageNavigation: true },
					handleDisabledFileLoadingAsSuccess: true,
				},
			},
		},
		// The attack tests insert iframes on purpose; happy-dom reports each as "loading is disabled"
		// (which is the point). Only that expected line is kept out of the output.
		onConsoleLog: (log) => !/Failed to load iframe page "[^"]*"\. Iframe page loading is disabled\./.test(log),
		projects: [
			{
				// The engine's tests share their worker's modules (isolate: false): importing src/ and the
				// test runtime afresh for each file was most of the run's time.
				extends: true,
				test: { name: "engine", include: SHARED, isolate: false, setupFiles: SHARED_SETUP },
			},
			{
				// The DOM tests (and the other files outside the engine's folders) share their worker's
				// modules too: importing happy-dom, src/ and the runtime for each file was most of their time.
				extends: true,
				test: { name: "dom", include: ["tests/**/*.test.ts"], exclude: [...EXCLUDED, ...SHARED, ...OWN_MODULES], isolate: false, setupFiles: SHARED_SETUP },
			},
			{
				// Modules reset before each file (in the same worker): a vi.mock or a replaced clock stays in its file.
				extends: true,
				test: { name: "isolated", include: [...OWN_MODULES], isolate: true, setupFiles: [FRESH_FILE] },
			},
		],
	},
});
