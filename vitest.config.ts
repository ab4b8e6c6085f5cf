import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
	resolve: {
		alias: {
			// `obsidian` on npm is types only: tests run against an in-memory runtime typed against obsidian.d.ts.
			obsidian: fileURLToPath(new URL("./tests/obsidian/index.ts", import.meta.url)),
		},
	},
	test: {
		include: ["tests/**/*.test.ts"],
		// tests/real needs llama.cpp built and a model: `npm run test:real` (vitest.real.config.ts).
		// tests/processes start the terminal chat and other scripts as processes: `npm run
		// test:processes` (vitest.processes.config.ts), which CI runs too.
		exclude: ["tests/e2e/**", "tests/real/**", "tests/processes/**", "node_modules/**"],
		// Worker threads start faster than forked processes; no test shares state across files.
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
	},
});
