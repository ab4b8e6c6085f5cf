// Settings → MCP servers → Add a server by form: what the person typed (kept as typed, whatever is
// wrong with it) and the saved server it makes, or every problem at once, each tied to its field.
// A header or env value is either text or the name of a secret chosen from Obsidian's secret
// storage; text that looks like a secret is refused, so no secret is ever written to data.json.
// Engine-safe: no 'obsidian'.
import { httpUrlProblem } from "../core/httpUrl";
import { looksSecret } from "./mcpPaste";
import { MCP_SERVER_NAME, MCP_TIMEOUT_MS, type McpServerSetting, type McpValue } from "./mcpServers";

/** One env variable or header row: its name, and its value as text or as a secret's name. */
export interface McpFormValue {
	key: string;
	kind: "text" | "secret";
	text: string;
	secret: string;
}

/** The form as typed. Both transports' fields are kept, so switching back loses nothing. */
export interface McpForm {
	name: string;
	transport: "stdio" | "http";
	command: string;
	/** One argument per line (no shell quoting to get wrong). */
	args: string;
	env: McpFormValue[];
	url: string;
	headers: McpFormValue[];
	/** The call time limit in seconds; empty for the default. */
	timeoutSeconds: string;
}

export const emptyMcpForm = (): McpForm => ({ name: "", transport: "stdio", command: "", args: "", env: [], url: "", headers: [], timeoutSeconds: "" });
export const emptyMcpFormValue = (): McpFormValue => ({ key: "", kind: "text", text: "", secret: "" });

export type McpFormProblemCode =
	| "nameEmpty"
	| "nameInvalid"
	| "nameTaken"
	| "commandEmpty"
	| "urlEmpty"
	| "urlInvalid"
	| "urlProtocol"
	| "timeout"
	| "keyEmpty"
	| "keyTaken"
	| "secretNone"
	| "looksSecret";

/** Where a problem is: a top field, or one env/header row. */
export type McpFormProblem =
	| { field: "name" | "command" | "url" | "timeout"; code: McpFormProblemCode }
	| { field: "env" | "headers"; index: number; key: string; code: McpFormProblemCode };

export type McpFormResult = { ok: true; server: McpServerSetting } | { ok: false; problems: McpFormProblem[] };

const HTTP_HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ENV_NAME = /^[^=\0]+$/;

function values(place: "env" | "headers", rows: readonly McpFormValue[], problems: McpFormProblem[]): Record<string, McpValue> | undefined {
	const out: Record<string, McpValue> = {};
	const seen = new Set<string>();
	rows.forEach((row, index) => {
		const key = row.key.trim();
		const blank = key === "" && row.text.trim() === "" && row.secret === "";
		if (blank) return; // An empty row added and left: nothing to save, nothing to complain about.
		const fail = (code: McpFormProblemCode): void => void problems.push({ field: place, index, key, code });
		if (key === "" || !(place === "headers" ? HTTP_HEADER_NAME : ENV_NAME).test(key)) return fail("keyEmpty");
		const folded = place === "headers" ? key.toLowerCase() : key;
		if (seen.has(folded)) return fail("keyTaken");
		seen.add(folded);
		if (row.kind === "secret") {
			if (row.secret === "") return fail("secretNone");
			out[key] = { secret: row.secret };
		} else {
			if (looksSecret(place, key, row.text)) return fail("looksSecret");
			out[key] = row.text;
		}
	});
	return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The server the form describes, or all its problems. `saved` are the servers already set up (a
 * name is unique among them, without case).
 */
export function serverFromForm(form: McpForm, saved: readonly McpServerSetting[]): McpFormResult {
	const problems: McpFormProblem[] = [];
	const name = form.name.trim();
	if (name === "") problems.push({ field: "name", code: "nameEmpty" });
	else if (!MCP_SERVER_NAME.test(name)) problems.push({ field: "name", code: "nameInvalid" });
	else if (saved.some((s) => s.name.toLowerCase() === name.toLowerCase())) problems.push({ field: "name", code: "nameTaken" });
	const server: McpServerSetting = { name, enabled: true };
	if (form.transport === "stdio") {
		const command = form.command.trim();
		if (command === "") problems.push({ field: "command", code: "commandEmpty" });
		server.command = command;
		const args = form.args.split(/\r?\n/).filter((a) => a.trim() !== "");
		if (args.length > 0) server.args = args;
		const env = values("env", form.env, problems);
		if (env !== undefined) server.env = env;
	} else {
		const url = form.url.trim();
		if (url === "") problems.push({ field: "url", code: "urlEmpty" });
		else {
			const problem = httpUrlProblem(url);
			if (problem !== undefined) problems.push({ field: "url", code: problem === "invalid" ? "urlInvalid" : "urlProtocol" });
		}
		server.url = url;
		const headers = values("headers", form.headers, problems);
		if (headers !== undefined) server.headers = headers;
	}
	const timeout = form.timeoutSeconds.trim();
	if (timeout !== "") {
		const seconds = Number(timeout);
		const ms = Math.round(seconds * 1000);
		if (!Number.isFinite(seconds) || ms < MCP_TIMEOUT_MS.min || ms > MCP_TIMEOUT_MS.max) problems.push({ field: "timeout", code: "timeout" });
		else server.timeoutMs = ms;
	}
	// What passes here also passes the saved form's check (mcpServerProblem): a property test holds it.
	return problems.length > 0 ? { ok: false, problems } : { ok: true, server };
}
