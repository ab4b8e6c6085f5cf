// `npm run test:real`: Discover against llama.cpp's real server (tests/real/), apart from
// `npm test`, which never needs a compiler or a model. One file at a time: every file shares the
// servers, each of which has a single slot.
import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
	resolve: {
		alias: {
			obsidian: fileURLToPath(new URL("./tests/obsidian/index.ts", import.meta.url)),
		},
	},
	test: {
		include: ["tests/real/**/*.test.ts"],
		globalSetup: ["tests/real/globalSetup.ts"],
		environment: "node",
		fileParallelism: false,
		testTimeout: 60_000,
		hookTimeout: 60_000,
	},
});
