#!/usr/bin/env node
// Installs and builds Discover into an Obsidian vault: the demo vault in this repository by
// default, or any vault given by path. Usage: npm run vault [-- --vault /path/to/vault]
// Needs only Node and npm: it installs the project's dependencies itself when they are missing.
import { execSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const flag = args.indexOf("--vault");
const vaultArg = flag >= 0 ? args[flag + 1] : args.find((a) => !a.startsWith("--"));
if (flag >= 0 && (!vaultArg || vaultArg.startsWith("--"))) {
	// Never fall back to the demo vault when a vault was asked for but its path is missing.
	console.error("Give the vault's path after --vault, e.g. npm run vault -- --vault ~/Notes");
	process.exit(1);
}
const vault = resolve(vaultArg ?? join(root, "demo-vault"));
const configSegment = vault.split(sep).indexOf(".obsidian");
if (configSegment > 0) {
	// A path inside a vault's config folder (its plugins folder, say) would get a vault of its own.
	const vaultRoot = vault.split(sep).slice(0, configSegment).join(sep) || sep;
	console.error(`${vault} is inside a vault's .obsidian folder. Pass the vault's own folder: ${vaultRoot}`);
	process.exit(1);
}

if (!existsSync(vault) || !statSync(vault).isDirectory()) {
	console.error(`No folder at ${vault}. Pass the path of an existing Obsidian vault.`);
	process.exit(1);
}
const run = (cmd) => execSync(cmd, { cwd: root, stdio: "inherit" });

if (!existsSync(join(root, "node_modules"))) {
	try {
		run("npm ci --no-audit --no-fund");
	} catch {
		// An npm that disagrees with the lock file still gets a working install, without rewriting it.
		console.warn("npm ci failed; installing with npm install instead.");
		run("npm install --no-audit --no-fund --no-save");
	}
}
run("npm run build");

const configDir = join(vault, ".obsidian");
const pluginDir = join(configDir, "plugins", "discover-chat");
mkdirSync(pluginDir, { recursive: true });
for (const file of ["main.js", "manifest.json", "styles.css"]) copyFileSync(join(root, file), join(pluginDir, file));

// Enable the plugin (Obsidian still asks once to trust community plugins in a vault it has not seen).
const listFile = join(configDir, "community-plugins.json");
let enabled = [];
try {
	enabled = JSON.parse(readFileSync(listFile, "utf8"));
} catch {
	enabled = [];
}
if (!Array.isArray(enabled)) enabled = [];
if (!enabled.includes("discover-chat")) enabled.push("discover-chat");
writeFileSync(listFile, JSON.stringify(enabled, null, 2) + "\n");

// The last line names the vault's root, the one folder Obsidian should open (never the plugin's folder).
console.log(`\nDiscover is installed: its files are in ${join(".obsidian", "plugins", "discover-chat")} inside the vault.`);
console.log("It needs a model server running: Ollama with a model pulled (ollama pull llama3.2), or an OpenAI-compatible server such as LM Studio.");
console.log('In Obsidian, choose "Open folder as vault", trust the community plugins when asked, click the chat icon in the ribbon and pick a model.');
console.log(`Open this folder as a vault: ${vault}`);
