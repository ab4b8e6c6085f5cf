// `npm run test:processes`: the tests that start the terminal chat and the repository's scripts as
// processes (tests/processes/), apart from `npm test`'s unit run, which they slowed most. CI runs both.
import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
	resolve: {
		alias: {
			obsidian: fileURLToPath(new URL("./tests/obsidian/index.ts", import.meta.url)),
		},
	},
	test: {
		include: ["tests/processes/**/*.test.ts"],
		environment: "node",
		testTimeout: 20000,
	},
});
