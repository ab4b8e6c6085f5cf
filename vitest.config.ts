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
		exclude: ["tests/e2e/**", "tests/real/**", "node_modules/**"],
		environment: "node",
		testTimeout: 20000,
	},
});
