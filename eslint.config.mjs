import { defineConfig, globalIgnores } from "eslint/config";
import obsidianmd from "eslint-plugin-obsidianmd";
import globals from "globals";

export default defineConfig([
	globalIgnores(["node_modules/", "main.js", "artifacts/", "coverage/", "demo-vault/", ".tmp/"]),
	...obsidianmd.configs.recommended,
	{
		languageOptions: {
			globals: { ...globals.browser },
			parserOptions: {
				projectService: {
					allowDefaultProject: ["eslint.config.mjs", "esbuild.config.mjs", "version-bump.mjs", "scripts/*.js", "scripts/*.mjs", ".ci/*.mjs"],
				},
				tsconfigRootDir: import.meta.dirname,
			},
		},
	},
	{
		// Development-only code: tests, benchmarks and scripts run in Node, never in the app.
		files: ["tests/**", "bench/**", "scripts/**", "*.mjs", "vitest.config.ts", "**/*.test.ts"],
		languageOptions: { globals: { ...globals.node } },
		rules: {
			"import/no-nodejs-modules": "off",
			"no-console": "off",
			"obsidianmd/ui/sentence-case": "off",
		},
	},
]);
