// `npm run test:mcp` (tsx scripts/mcp-conformance.ts): the MCP conformance suite (@modelcontextprotocol/conformance, a devDependency)
// runs Discover's client (scripts/mcp-conformance-client.ts) against each client scenario's test
// server, and prints a table. The suite needs Node 22 (fs.globSync): under an older Node it runs
// through `npx -p node@22`. Exits 1 when a scenario that should pass fails.
//   npm run test:mcp                      every scenario below
//   npm run test:mcp -- initialize sse-retry   only these
// CONFORMANCE_DIR points at another install of the suite (its package folder).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import process from "node:process";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SUITE = process.env.CONFORMANCE_DIR ?? join(ROOT, "node_modules/@modelcontextprotocol/conformance");
const CLI = join(SUITE, "dist/index.js");

/** The client scenarios of spec 2025-11-25 and the 2025-03-26 back-compat ones, and whether Discover passes each. */
export const SCENARIOS: [string, string][] = [
	["initialize", "pass"],
	["tools_call", "pass"],
	["sse-retry", "pass"],
	["elicitation-sep1034-client-defaults", "pass"],
	["auth/metadata-default", "pass"],
	["auth/metadata-var1", "pass"],
	["auth/metadata-var2", "pass"],
	["auth/metadata-var3", "pass"],
	["auth/basic-cimd", "pass"],
	["auth/scope-from-www-authenticate", "pass"],
	["auth/scope-from-scopes-supported", "pass"],
	["auth/scope-omitted-when-undefined", "pass"],
	["auth/scope-step-up", "pass"],
	["auth/scope-retry-limit", "pass"],
	["auth/token-endpoint-auth-basic", "pass"],
	["auth/token-endpoint-auth-post", "pass"],
	["auth/token-endpoint-auth-none", "pass"],
	["auth/pre-registration", "pass"],
	["auth/2025-03-26-oauth-metadata-backcompat", "pass"],
	["auth/2025-03-26-oauth-endpoint-fallback", "pass"],
];

if (!existsSync(CLI)) {
	console.error(`The conformance suite is not installed (${CLI}). Run npm install, or set CONFORMANCE_DIR.`);
	process.exit(1);
}
const major = Number(process.versions.node.split(".")[0]);
const node = major >= 22 ? [process.execPath] : ["npx", "-y", "-p", "node@22", "--", "node"];
const tsx = join(ROOT, "node_modules/.bin/tsx");
// The suite splits the command on spaces: no quoting, so paths must have none.
const command = `${tsx} ${join(ROOT, "scripts/mcp-conformance-client.ts")}`;
if (/\s/.test(ROOT)) console.error(`Warning: the repository path has spaces (${ROOT}); the suite cannot run a command there.`);

const wanted = process.argv.slice(2);
const chosen = wanted.length > 0 ? SCENARIOS.filter(([name]) => wanted.includes(name)) : SCENARIOS;
interface Check {
	status: string;
	name: string;
	description: string;
	errorMessage?: string;
}
const rows: { name: string; result: string; checks: string; expected: string; note: string }[] = [];
let unexpected = 0;
for (const [name, expected] of chosen) {
	const out = mkdtempSync(join(tmpdir(), "mcp-conformance-"));
	const [bin = "node", ...pre] = node;
	const run = spawnSync(bin, [...pre, CLI, "client", "--command", command, "--scenario", name, "--timeout", "60000", "-o", out], { encoding: "utf8", cwd: ROOT, env: process.env });
	const dir = readdirSync(out, { recursive: true, encoding: "utf8" }).map((d) => join(out, d)).find((d) => existsSync(join(d, "checks.json")));
	const checks = (dir !== undefined ? JSON.parse(readFileSync(join(dir, "checks.json"), "utf8")) : []) as Check[];
	const failed = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
	const passed = run.status === 0;
	const note = passed ? "" : (failed.map((c) => `${c.name}: ${c.errorMessage ?? c.description}`).join("; ") || run.stderr.split("\n").filter((l) => /Error|error/.test(l)).slice(-2).join(" ")).slice(0, 300);
	if (passed !== (expected === "pass")) unexpected++;
	rows.push({ name, result: passed ? "pass" : "FAIL", checks: `${checks.filter((c) => c.status === "SUCCESS").length}/${checks.filter((c) => c.status !== "INFO").length}`, expected, note });
	console.log(`${passed ? "pass" : "FAIL"}  ${name}${note ? `  — ${note}` : ""}`);
}
console.log("\n| scenario | result | checks | expected |\n|---|---|---|---|");
for (const r of rows) console.log(`| ${r.name} | ${r.result} | ${r.checks} | ${r.expected} |`);
if (unexpected > 0) {
	console.error(`\n${unexpected} scenario(s) did not do what was expected.`);
	process.exit(1);
}
