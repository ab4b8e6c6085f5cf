import { defineConfig } from "vitest/config";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const EXCLUDED = ["tests/e2e/**", "tests/real/**", "tests/processes/**", "node_modules/**"];
/** The engine's tests (no DOM): they keep no state in modules, globals or the clock. */
const ENGINE_DIRS = ["agents", "chat", "context", "contract", "core", "editor", "lint", "mcp", "providers", "scripts", "sessions", "settings", "tools"];
/** Engine tests that replace a module (vi.mock) or the clock: each gets its own module graph. */
const OWN_MODULES = ["tests/chat/ChatService.cost.test.ts", "tests/chat/ChatService.checkpoint.test.ts", "tests/context/pdfWorker.property.test.ts"];
const SHARED = ENGINE_DIRS.flatMap((dir) =>
	readdirSync(fileURLToPath(new URL(`./tests/${dir}`, import.meta.url)), { recursive: true })
		.map((f) => `tests/${dir}/${String(f).replaceAll("\\", "/")}`)
		.filter((f) => f.endsWith(".test.ts") && !OWN_MODULES.includes(f)),
);

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
		// Worker threads start faster than forked processes.
		pool: "threads",
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
				test: { name: "engine", include: SHARED, isolate: false },
			},
			{
				// Every other test (the DOM tests, with happy-dom per file; a new folder's) in a module graph of its own.
				extends: true,
				test: { name: "isolated", include: ["tests/**/*.test.ts"], exclude: [...EXCLUDED, ...SHARED] },
			},
		],
	},
});
