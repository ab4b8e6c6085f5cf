// Servers pasted as JSON, the way every MCP server's README shows them for Claude Desktop:
// `{"mcpServers": {"name": {"command", "args", "env"} | {"url", "headers"}}}`, the bare inner object
// (`{"name": {...}}`), or a single server (`{"command": ...}`, named by the form). And which of the
// pasted values look like secrets (an Authorization header, a *_TOKEN or *_KEY variable...): those
// go to Obsidian's secret storage once the person agrees, never into data.json. Engine-safe.
import { httpUrlProblem } from "../core/httpUrl";
import { MCP_SERVER_NAME, MCP_TIMEOUT_MS, mcpServerProblem, secretsOf, type McpServerSetting } from "./mcpServers";

/** A pasted value that looks like a secret: where it sits, and the secret name proposed for it. */
export interface SecretCandidate {
	server: string;
	place: "env" | "headers";
	key: string;
	/** The secret id proposed (lowercase letters, digits, dashes). */
	secretName: string;
}

/** Why a paste was refused, in words for the person (the UI translates by `code`). */
export type PasteProblem =
	| { code: "json"; detail: string }
	| { code: "shape" }
	| { code: "empty" }
	| { code: "noName" }
	| { code: "server"; server: string; detail: PasteServerDetail; field?: string };

export type PasteServerDetail = "name" | "notObject" | "commandAndUrl" | "neither" | "url" | "field";

export type PasteResult = { ok: true; servers: McpServerSetting[]; secrets: SecretCandidate[] } | { ok: false; problem: PasteProblem };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const SERVER_KEYS = ["command", "url", "serverUrl"];
const looksLikeServer = (v: unknown): boolean => isObject(v) && SERVER_KEYS.some((k) => typeof v[k] === "string");

/** Header names that carry credentials. */
const SECRET_HEADERS = /^(authorization|proxy-authorization|cookie|x-api-key|api-key|x-auth-token|private-token)$|token|secret|api[-_]?key|password/i;
/** Env names that carry credentials: *_TOKEN, *_KEY, *_SECRET, *_PASSWORD, *_PAT, *_CREDENTIALS. */
const SECRET_ENV = /(^|_)(TOKEN|KEY|SECRET|PASSWORD|PASSWD|PAT|CREDENTIALS?|AUTH)$|API_?KEY|ACCESS_?TOKEN|SECRET/i;
/** Values that are credentials whatever their name: bearer tokens and the common key prefixes. */
const SECRET_VALUE = /^(bearer|basic|token)\s+\S{8,}|^(sk-|ghp_|gho_|github_pat_|xox[abp]-|glpat-|AKIA)[A-Za-z0-9_-]{8,}/i;

/** Whether a literal value under this name looks like a secret (an empty value or a placeholder does not). */
export function looksSecret(place: "env" | "headers", key: string, value: string): boolean {
	const v = value.trim();
	if (v === "" || /^<.*>$|^\$\{.*\}$|^your[-_ ]/i.test(v)) return false;
	if (SECRET_VALUE.test(v)) return true;
	return place === "headers" ? SECRET_HEADERS.test(key) : SECRET_ENV.test(key);
}

/** `s` as a secret name's part: lower-case ASCII letters and digits, runs of anything else as one "-". */
export function secretSlug(s: string): string {
	return s
		.normalize("NFKD")
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, "-")
		.replace(/^-+|-+$/g, "");
}

/** A secret id from a server's name and a key: `mcp-github-github-personal-access-token`. */
export function secretNameFor(server: string, key: string): string {
	const name = ["mcp", secretSlug(server), secretSlug(key)].filter((p) => p !== "").join("-");
	return name.slice(0, 100).replace(/-+$/, "");
}

/**
 * Names secrets so that none overwrites another: each call gives the plain name (`secretNameFor`)
 * or the first of `-2`, `-3`... that `isTaken` does not hold and no earlier call of this namer
 * chose. Both ways of adding a server (the paste and the form) name through it, when they save.
 */
export function secretNamer(isTaken: (name: string) => boolean): (server: string, key: string) => string {
	const chosen = new Set<string>();
	return (server, key) => {
		const base = secretNameFor(server, key);
		let name = base;
		for (let n = 2; chosen.has(name) || isTaken(name); n++) name = `${base}-${n}`;
		chosen.add(name);
		return name;
	};
}

/** The secret names already in use: those in secret storage, and those the saved servers refer to (a secret not there yet included). */
export function takenSecretNames(storage: { getSecret(name: string): string | null }, servers: readonly McpServerSetting[]): (name: string) => boolean {
	const referenced = new Set(servers.flatMap(secretsOf));
	return (name) => referenced.has(name) || storage.getSecret(name) !== null;
}

/** A name for a single pasted server the form did not name: the package or the host. */
export function guessServerName(raw: Record<string, unknown>): string | undefined {
	const args = Array.isArray(raw.args) ? raw.args.filter((a): a is string => typeof a === "string" && !a.startsWith("-")) : [];
	const pkg = args.find((a) => /^(@[\w.-]+\/)?[\w.-]+(@[\w.^~-]+)?$/.test(a) && !/^\d/.test(a));
	if (typeof raw.command === "string" && pkg !== undefined) {
		const base = pkg.replace(/@[\w.^~-]+$/, "").split("/").pop() ?? pkg;
		return base.replace(/^(mcp-server-|server-)/, "").replace(/-mcp(-server)?$/, "") || base;
	}
	if (typeof raw.command === "string") return raw.command.split(/[\\/]/).pop()?.replace(/\.\w+$/, "");
	const url = typeof raw.url === "string" ? raw.url : typeof raw.serverUrl === "string" ? raw.serverUrl : undefined;
	if (url !== undefined) {
		try {
			return new URL(url).hostname.replace(/^(www|mcp|api)\./, "").split(".")[0];
		} catch {
			return undefined;
		}
	}
	return undefined;
}

function stringMap(v: unknown): Record<string, string> | undefined | false {
	if (v === undefined || v === null) return undefined;
	if (!isObject(v)) return false;
	const out: Record<string, string> = {};
	for (const [k, x] of Object.entries(v)) {
		if (k.trim() === "") return false; // A value without a name: the saved list would be invalid.
		if (typeof x === "string") out[k] = x;
		else if (typeof x === "number" || typeof x === "boolean") out[k] = String(x);
		else return false;
	}
	return out;
}

function serverFrom(name: string, raw: unknown): McpServerSetting | PasteProblem {
	const fail = (detail: PasteServerDetail, field?: string): PasteProblem => ({ code: "server", server: name, detail, ...(field !== undefined ? { field } : {}) });
	if (!MCP_SERVER_NAME.test(name)) return fail("name");
	if (!isObject(raw)) return fail("notObject");
	const url = typeof raw.url === "string" ? raw.url.trim() : typeof raw.serverUrl === "string" ? raw.serverUrl.trim() : "";
	const command = typeof raw.command === "string" ? raw.command.trim() : "";
	if (command !== "" && url !== "") return fail("commandAndUrl");
	if (command === "" && url === "") return fail("neither");
	// Claude Desktop's `disabled: true` (and Cline's) keeps the server listed but off.
	const server: McpServerSetting = { name, enabled: raw.disabled !== true };
	if (command !== "") {
		server.command = command;
		if (raw.args !== undefined) {
			if (!Array.isArray(raw.args) || !raw.args.every((a) => typeof a === "string" || typeof a === "number")) return fail("field", "args");
			server.args = raw.args.map(String);
		}
		const env = stringMap(raw.env);
		if (env === false) return fail("field", "env");
		if (env !== undefined) server.env = env;
	} else {
		if (httpUrlProblem(url) !== undefined) return fail("url");
		server.url = url;
		const headers = stringMap(raw.headers);
		if (headers === false) return fail("field", "headers");
		if (headers !== undefined) server.headers = headers;
	}
	// A time limit in ms (`timeout`, as several clients write it) or in seconds when small.
	const timeout = typeof raw.timeoutMs === "number" ? raw.timeoutMs : typeof raw.timeout === "number" ? (raw.timeout < 1000 ? raw.timeout * 1000 : raw.timeout) : undefined;
	if (timeout !== undefined) {
		if (!Number.isFinite(timeout)) return fail("field", "timeout");
		server.timeoutMs = Math.min(MCP_TIMEOUT_MS.max, Math.max(MCP_TIMEOUT_MS.min, Math.round(timeout)));
	}
	if (Array.isArray(raw.disabledTools) && raw.disabledTools.every((t) => typeof t === "string")) server.disabledTools = [...raw.disabledTools];
	return server;
}

/**
 * Reads a paste: the servers it holds (literal values as pasted) and the values among them that
 * look like secrets. `singleName` names a lone server (the form's name field); without it one is
 * guessed from its package or host.
 */
export function parseMcpPaste(text: string, singleName?: string, isSecretTaken: (name: string) => boolean = () => false): PasteResult {
	const trimmed = text.trim();
	if (trimmed === "") return { ok: false, problem: { code: "empty" } };
	let data: unknown;
	try {
		data = JSON.parse(trimmed);
	} catch (err) {
		// A snippet copied from a README is often the inner lines without their outer braces.
		try {
			data = JSON.parse(`{${trimmed.replace(/,\s*$/, "")}}`);
		} catch {
			return { ok: false, problem: { code: "json", detail: err instanceof Error ? err.message : String(err) } };
		}
	}
	if (!isObject(data)) return { ok: false, problem: { code: "shape" } };
	let entries: [string, unknown][];
	if (isObject(data.mcpServers)) entries = Object.entries(data.mcpServers);
	else if (isObject(data.servers)) entries = Object.entries(data.servers);
	else if (looksLikeServer(data)) {
		const name = (singleName?.trim() || (typeof data.name === "string" ? data.name.trim() : "") || guessServerName(data)) ?? "";
		if (name === "") return { ok: false, problem: { code: "noName" } };
		entries = [[name, data]];
	} else if (Object.values(data).length > 0 && Object.values(data).every(isObject)) entries = Object.entries(data);
	else return { ok: false, problem: { code: "shape" } };
	if (entries.length === 0) return { ok: false, problem: { code: "empty" } };
	const servers: McpServerSetting[] = [];
	const secrets: SecretCandidate[] = [];
	// Secret names unique in this paste ("g" and "g-" slug alike) and free where `isSecretTaken` looks
	// (secret storage, the saved servers): one server's secret never overwrites another's.
	const uniqueSecretName = secretNamer(isSecretTaken);
	for (const [name, raw] of entries) {
		const server = serverFrom(name.trim(), raw);
		if ("code" in server) return { ok: false, problem: server };
		servers.push(server);
		for (const place of ["env", "headers"] as const) {
			for (const [key, value] of Object.entries(server[place] ?? {})) {
				if (typeof value === "string" && looksSecret(place, key, value)) secrets.push({ server: server.name, place, key, secretName: uniqueSecretName(server.name, key) });
			}
		}
	}
	return { ok: true, servers, secrets };
}

/**
 * The servers with the chosen values replaced by references to the secrets they were moved into.
 * `moved` holds the candidates whose value is now in secret storage (under `secretName`).
 */
export function withSecretRefs(servers: readonly McpServerSetting[], moved: readonly SecretCandidate[]): McpServerSetting[] {
	return servers.map((server) => {
		const out: McpServerSetting = { ...server };
		for (const place of ["env", "headers"] as const) {
			const map = server[place];
			if (map === undefined) continue;
			const next = { ...map };
			for (const m of moved) if (m.server === server.name && m.place === place && m.key in next) next[m.key] = { secret: m.secretName };
			out[place] = next;
		}
		return out;
	});
}

/** The literal values that look like secrets in saved servers (which must never be written as such). */
export function literalSecrets(servers: readonly McpServerSetting[]): SecretCandidate[] {
	const out: SecretCandidate[] = [];
	for (const server of servers) {
		for (const place of ["env", "headers"] as const) {
			for (const [key, value] of Object.entries(server[place] ?? {})) if (typeof value === "string" && looksSecret(place, key, value)) out.push({ server: server.name, place, key, secretName: secretNameFor(server.name, key) });
		}
	}
	return out;
}

/** Why servers must not join the saved ones: one invalid, a literal value that looks secret, or two named alike. */
export type McpSaveProblem = { code: "invalid"; server: string } | { code: "secret"; server: string; key: string } | { code: "duplicate"; server: string };

/**
 * The last check before `added` joins `saved` in data.json, whichever way they were added: each
 * added server valid, none holding a literal secret, no two names alike (without case). A saved list
 * that fails it would be dropped whole on the next load, or would write a secret to data.json.
 */
export function mcpSaveProblem(saved: readonly McpServerSetting[], added: readonly McpServerSetting[]): McpSaveProblem | undefined {
	const invalid = added.find((s) => mcpServerProblem(s) !== undefined);
	if (invalid !== undefined) return { code: "invalid", server: String(invalid.name) };
	const secret = literalSecrets(added)[0];
	if (secret !== undefined) return { code: "secret", server: secret.server, key: secret.key };
	const seen = new Set<string>();
	for (const server of [...saved, ...added]) {
		const name = server.name.toLowerCase();
		if (seen.has(name)) return { code: "duplicate", server: server.name };
		seen.add(name);
	}
	return undefined;
}
