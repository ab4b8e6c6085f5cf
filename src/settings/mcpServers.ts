// The MCP servers the person set up (Settings → Discover → MCP servers), as saved in data.json: the
// Claude Desktop shape (command/args/env for stdio, url/headers for HTTP) plus Discover's own
// fields (on or off, time limit, turned-off tools). A header or env value that is a secret is saved
// as the NAME of a secret in Obsidian's secret storage (`{ secret: "github-token" }`), never as the
// value. Engine-safe: no 'obsidian', and nothing from src/mcp at run time (main.ts reaches this file;
// the MCP client stays off the plugin's startup path).
import { httpUrlProblem } from "../core/httpUrl";
import type { McpServerConfig } from "../mcp/config";

/** Obsidian's secret ids (as settings.SECRET_NAME; settings.ts imports this file). */
const SECRET_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** A header or env value: literal text, or the name of a secret in Obsidian's secret storage. */
export type McpValue = string | { secret: string };

export interface McpServerSetting {
	name: string;
	/** Turned on: chats without an agent offer its tools. Off (Disable): it never runs, for agents neither. */
	enabled: boolean;
	command?: string;
	args?: string[];
	env?: Record<string, McpValue>;
	url?: string;
	headers?: Record<string, McpValue>;
	/** A call's time limit in ms (the client's default, 120 s, when absent). */
	timeoutMs?: number;
	/** Tools the person turned off, by the server's tool name. */
	disabledTools?: string[];
}

/** The longest time limit the settings accept (an hour); the shortest is a second. */
export const MCP_TIMEOUT_MS = { min: 1_000, max: 3_600_000 } as const;
/** Server names: what `mcp: [...]` in an agent note and the tools' `<server>__<tool>` names use. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function isMcpValue(v: unknown): v is McpValue {
	if (typeof v === "string") return true;
	return isObject(v) && Object.keys(v).length === 1 && typeof v.secret === "string" && SECRET_NAME.test(v.secret);
}

const isValueMap = (v: unknown): v is Record<string, McpValue> => isObject(v) && Object.entries(v).every(([k, x]) => k.trim() !== "" && isMcpValue(x));

/** Why a server's saved form is wrong (plain English, for the engine's messages), or undefined. */
export function mcpServerProblem(v: unknown): string | undefined {
	if (!isObject(v)) return "A server must be an object.";
	if (typeof v.name !== "string" || !MCP_SERVER_NAME.test(v.name)) return "A server needs a name of letters, digits, spaces, dots, dashes or underscores (at most 64).";
	if (typeof v.enabled !== "boolean") return "A server must be on or off.";
	const hasCommand = typeof v.command === "string" && v.command.trim() !== "";
	const hasUrl = typeof v.url === "string" && v.url.trim() !== "";
	if (hasCommand === hasUrl) return "A server needs either a command (stdio) or a url (HTTP).";
	if (v.command !== undefined && typeof v.command !== "string") return "The command must be text.";
	if (v.args !== undefined && !(Array.isArray(v.args) && v.args.every((a) => typeof a === "string"))) return "The arguments must be a list of text.";
	if (v.env !== undefined && !isValueMap(v.env)) return "The environment must map names to text or to a secret.";
	if (hasUrl) {
		const problem = httpUrlProblem(v.url as string);
		if (problem === "invalid") return "The url is not an address.";
		if (problem === "protocol") return "The url must start with http:// or https://.";
	}
	if (v.headers !== undefined && !isValueMap(v.headers)) return "The headers must map names to text or to a secret.";
	if (v.timeoutMs !== undefined && !(typeof v.timeoutMs === "number" && Number.isInteger(v.timeoutMs) && v.timeoutMs >= MCP_TIMEOUT_MS.min && v.timeoutMs <= MCP_TIMEOUT_MS.max)) return "The time limit must be from 1 second to 1 hour.";
	if (v.disabledTools !== undefined && !(Array.isArray(v.disabledTools) && v.disabledTools.every((t) => typeof t === "string"))) return "The turned-off tools must be a list of names.";
	return undefined;
}

export const isMcpServer = (v: unknown): v is McpServerSetting => mcpServerProblem(v) === undefined;

/** A list of servers, each valid, no two with the same name (compared without case). */
export function isMcpServers(v: unknown): v is McpServerSetting[] {
	if (!Array.isArray(v) || !v.every(isMcpServer)) return false;
	const names = v.map((s) => s.name.toLowerCase());
	return new Set(names).size === names.length;
}

/** The secret names a server's values refer to. */
export function secretsOf(server: McpServerSetting): string[] {
	const out: string[] = [];
	for (const map of [server.env, server.headers]) for (const value of Object.values(map ?? {})) if (typeof value !== "string") out.push(value.secret);
	return out;
}

export type ResolvedServer = { ok: true; config: McpServerConfig } | { ok: false; missingSecret: string };

/**
 * The client's config for a saved server: each secret read from secret storage as it is needed
 * (never kept in settings). A secret that is not there gives `missingSecret` instead: the server
 * is not started with a value missing.
 */
export function resolveMcpServer(server: McpServerSetting, getSecret: (name: string) => string | null): ResolvedServer {
	let missing: string | undefined;
	const resolve = (map: Record<string, McpValue> | undefined): Record<string, string> | undefined => {
		if (map === undefined) return undefined;
		const out: Record<string, string> = {};
		for (const [key, value] of Object.entries(map)) {
			if (typeof value === "string") out[key] = value;
			else {
				const secret = getSecret(value.secret);
				if (secret === null) missing ??= value.secret;
				else out[key] = secret;
			}
		}
		return out;
	};
	const config: McpServerConfig = { name: server.name };
	if (server.command !== undefined && server.command.trim() !== "") {
		config.command = server.command.trim();
		if (server.args !== undefined) config.args = [...server.args];
		const env = resolve(server.env);
		if (env !== undefined) config.env = env;
	} else if (server.url !== undefined) {
		config.url = server.url.trim();
		const headers = resolve(server.headers);
		if (headers !== undefined) config.headers = headers;
	}
	if (server.timeoutMs !== undefined) config.timeoutMs = server.timeoutMs;
	if (server.disabledTools !== undefined) config.disabledTools = [...server.disabledTools];
	return missing !== undefined ? { ok: false, missingSecret: missing } : { ok: true, config };
}

/** stdio or HTTP, as the saved form says (a valid form has exactly one). */
export const mcpKindOf = (server: McpServerSetting): "stdio" | "http" => (server.command !== undefined && server.command.trim() !== "" ? "stdio" : "http");
