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
					// scripts/llama-server.mjs is not listed: tests/real import it, so it is in the project already.
					allowDefaultProject: ["eslint.config.mjs", "esbuild.config.mjs", "version-bump.mjs", "scripts/*.js", "scripts/e2e*.mjs", "scripts/install-vault.mjs", ".ci/*.mjs"],
				},
				tsconfigRootDir: import.meta.dirname,
			},
		},
	},
	{
		// Development-only code: tests, benchmarks and scripts run in Node, never in the app.
		files: ["tests/**", "bench/**", "scripts/**", "*.mjs", "vitest.config.ts", "vitest.real.config.ts", "vitest.processes.config.ts", "**/*.test.ts"],
		languageOptions: { globals: { ...globals.node } },
		rules: {
			// Node is the platform here; the mobile rule guards plugin code only.
			"obsidianmd/no-nodejs-modules": "off",
			"import/no-nodejs-modules": "off",
			// Scripts and benchmarks talk through the console.
			"obsidianmd/rule-custom-message": "off",
			"no-console": "off",
			// Scripts write real vaults on disk, whose config folder is `.obsidian` unless renamed.
			"obsidianmd/hardcoded-config-path": "off",
		},
	},
	{
		// The real-server script runs in Node only (tests/real, CI): Node's fetch and timers, no window.
		files: ["scripts/llama-server.mjs"],
		rules: { "no-restricted-globals": "off", "obsidianmd/prefer-window-timers": "off" },
	},
	{
		// NodeFileStore serves scripts, tests and benchmarks only; a test keeps it unreachable from main.ts.
		files: ["src/sessions/nodeStore.ts"],
		rules: { "obsidianmd/no-nodejs-modules": "off", "import/no-nodejs-modules": "off" },
	},
	{
		// The same dependency ban as the recommended config, allowing builtin-modules: a dev-only
		// build input (esbuild's external list, as in Obsidian's sample plugin), never bundled.
		files: ["package.json"],
		rules: {
			"depend/ban-dependencies": ["error", { presets: ["native", "microutilities", "preferred"], allowed: ["builtin-modules"] }],
		},
	},
	{
		// The in-memory Obsidian runtime implements createEl, activeWindow and the vault itself, so the
		// rules that steer plugin code towards those APIs do not apply to it.
		files: ["tests/obsidian/**", "tests/e2e/page.ts"],
		rules: {
			"obsidianmd/prefer-create-el": "off",
			"obsidianmd/no-global-this": "off",
			"obsidianmd/prefer-file-manager-trash-file": "off",
			"obsidianmd/settings-tab/prefer-setting-definitions": "off",
			// It implements instanceOf itself, and keeps Obsidian's deprecated APIs as faithfully as the rest.
			"obsidianmd/prefer-instanceof": "off",
			"@typescript-eslint/no-deprecated": "off",
		},
	},
	{
		// The unit tests' per-file reset replaces the worker's window and timers: the global object is its subject.
		files: ["tests/support/freshFile.ts"],
		rules: { "obsidianmd/no-global-this": "off" },
	},
	{
		// The browser test's page plays Obsidian, not the plugin: it loads main.js from its own server.
		files: ["tests/e2e/page.ts"],
		rules: { "no-restricted-globals": "off" },
	},
	{
		// Node-run tests inject Node's timers into the code under test: there is no window, and
		// vi.useFakeTimers replaces the timers on globalThis (not node:timers' exports).
		files: ["tests/support/nodeTimers.ts"],
		rules: { "obsidianmd/no-global-this": "off" },
	},
	// Expected in plugin code, each for a reason (the reviewers' config forbids disable comments for
	// these rules, so the exemption is scoped here, to the one file and rule):
	{
		// Streaming and Stop need fetch: requestUrl buffers the whole answer and cannot be aborted.
		files: ["src/**/transport.ts"],
		rules: { "no-restricted-globals": "off" },
	},
	{
		// The settings tab is drawn imperatively (live model list, budget checks); adopting
		// getSettingDefinitions (Obsidian 1.13) is a change of its own.
		files: ["src/**/SettingTab.ts"],
		rules: { "obsidianmd/settings-tab/prefer-setting-definitions": "off" },
	},
	{
		// The UI's English text lives in the catalogue: the reviewers' rule for English locale modules
		// (their recommendedWithLocalesEn config) keeps it in sentence case, with our brands and keys.
		files: ["src/i18n/en.ts"],
		rules: {
			"obsidianmd/ui/sentence-case-locale-module": [
				"error",
				{
					brands: ["Discover", "Obsidian", "Ollama", "OpenAI", "Anthropic", "LM Studio", "Markdown", "Templater", "DataviewJS", "Dataview", "Enter", "Shift", "Ctrl", "Cmd", "Esc", "Tab", "vLLM", "Retry-After", "I"],
					// Obsidian's own "Settings" window, named as a place.
					ignoreRegex: ["Settings →", "^stopped$"],
					acronyms: ["API", "URL", "URLs", "URI", "JSON", "JSONL", "ID", "OK", "MCP"],
				},
			],
		},
	},
]);
