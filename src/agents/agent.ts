// An agent: a name, a provider and model, instructions (the system prompt), a temperature, the
// tools it may use and the sources every message carries. Agents are Markdown notes (front matter
// for the options, the body for the instructions), so they sync, diff and link like any note. This
// module checks what a note's front matter holds (already parsed: the wiring uses Obsidian's
// parseYaml) and never imports 'obsidian'. The front matter is the person's own text: every field is
// checked, and a problem names the note and the field.
import { PROVIDERS, type ProviderName } from "../providers/types";
import { pathSegments } from "../core/pathFences";

/** The six vault tools an agent may be allowed to run without asking. */
export const AGENT_TOOLS = ["search_notes", "read_note", "list_notes", "get_active_note", "create_note", "edit_note"] as const;

/** The temperatures every provider accepts. */
export const TEMPERATURE = { min: 0, max: 2 } as const;

/** A source the agent attaches to each message: a note (a `[[link]]` or a path) or a folder (a path ending in `/`). */
export type AgentSource = { type: "note"; link: string } | { type: "folder"; path: string };

export interface Agent {
	/** The note's vault path: the agent's identity (saved with each chat). */
	path: string;
	name: string;
	/** Absent: the settings' provider. */
	provider?: ProviderName;
	/** Absent: the chat's or the settings' model. */
	model?: string;
	/** Absent: the server's default. */
	temperature?: number;
	/** The server's address (`baseUrl:`); absent: the settings' address for the settings' provider, else the provider's usual one. */
	baseUrl?: string;
	/** The NAME of the secret (Obsidian's secret storage) this agent's requests carry (`secret:`). Required for a key when the agent names another server than the settings'. */
	secret?: string;
	/** Tools the agent offers the model; its read tools run unasked, its write tools only in `writeFolders`, and only once the person approved the agent. */
	tools: string[];
	/** Folders (vault paths) where the agent's write tools run without a card (`writeFolders:`); absent or empty: every write asks. */
	writeFolders?: string[];
	sources: AgentSource[];
	/** The MCP servers (by their names in Settings → MCP servers) whose tools the agent's chats offer (`mcp:`); absent: the servers turned on in settings. Part of what the person approves. */
	mcp?: string[];
	/** The note's body: the system prompt. */
	instructions: string;
}

/** The front matter fields an agent note may hold. */
export const AGENT_FIELDS = ["name", "provider", "model", "temperature", "baseUrl", "secret", "tools", "writeFolders", "sources", "mcp"] as const;
export type AgentField = (typeof AGENT_FIELDS)[number] | "frontmatter";

/** What is wrong with an agent note: the note, the field, and (for a list) the entry at fault. */
export interface AgentIssue {
	path: string;
	field: AgentField;
	/** The offending entry (an unknown tool's name, a provider's name...), when there is one. */
	value?: string;
}

export type AgentResult = { ok: true; agent: Agent } | { ok: false; issue: AgentIssue };

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

/** A note's YAML front matter (undefined when it has none) and its body. */
export function splitFrontMatter(text: string): { yaml: string | undefined; body: string } {
	const clean = text.startsWith("\uFEFF") ? text.slice(1) : text;
	const match = FRONT_MATTER.exec(clean);
	if (!match) return { yaml: undefined, body: clean };
	return { yaml: match[1] ?? "", body: clean.slice(match[0].length) };
}

/** The note's name without its folder and `.md`: the agent's name when the front matter gives none. */
export function noteName(path: string): string {
	const base = path.split("/").pop() ?? path;
	return base.replace(/\.md$/i, "");
}

/** An offending value as the person wrote it (a list or mapping as JSON). */
const shown = (value: unknown): string => (typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : (JSON.stringify(value) ?? typeof value));

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Obsidian's secret ids: lowercase letters and digits, with single dashes between (as settings.SECRET_NAME). */
const SECRET_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** An http(s) address with a host and no user name or password in it (the review card shows only its origin). */
function serverAddress(value: unknown): string | undefined {
	if (typeof value !== "string") return undefined;
	const text = value.trim();
	try {
		const url = new URL(text);
		if ((url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "" || url.username !== "" || url.password !== "") return undefined;
		return text;
	} catch {
		return undefined;
	}
}

/** An MCP server's name as the settings allow it (settings/mcpServers.ts's MCP_SERVER_NAME). */
const MCP_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/;

/** A folder path (`Projects`, `Projects/`): no `..`, no link brackets, and not the whole vault. */
function folderPath(entry: unknown): string | undefined {
	if (typeof entry !== "string") return undefined;
	const text = entry.trim().replace(/\/+$/, "");
	if (text === "" || text.includes("[") || text.includes("]") || text.split(/[\\/]/).some((s) => s.trim() === "..")) return undefined;
	return pathSegments(text).length === 0 ? undefined : text;
}

/** A list field: absent is empty, one string is a list of one. */
function listOf(value: unknown): unknown[] | undefined {
	if (value === undefined || value === null) return [];
	if (typeof value === "string") return value.trim() === "" ? [] : [value];
	return Array.isArray(value) ? value : undefined;
}

/** `[[Note]]` unquoted in YAML is a list (in a list): read it as the link it was meant to be. */
function unquotedLink(entry: unknown): string | undefined {
	let inner: unknown = entry;
	for (let depth = 0; depth < 2 && Array.isArray(inner) && inner.length === 1; depth++) inner = inner[0];
	return Array.isArray(entry) && typeof inner === "string" ? `[[${inner}]]` : undefined;
}

function sourceOf(entry: unknown): AgentSource | undefined {
	entry = unquotedLink(entry) ?? entry;
	if (typeof entry !== "string") return undefined;
	const text = entry.trim();
	const link = /^\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]$/.exec(text);
	if (link) return { type: "note", link: (link[1] ?? "").trim() };
	if (text === "" || text.includes("[") || text.includes("]") || text.split(/[\\/]/).some((s) => s.trim() === "..")) return undefined;
	// A folder naming the whole vault ("/", "./") would reach every note, excluded ones too: refused.
	if (text.endsWith("/")) {
		const path = folderPath(text);
		return path === undefined ? undefined : { type: "folder", path };
	}
	return { type: "note", link: text };
}

/**
 * The agent a note describes: `frontMatter` is its parsed front matter (undefined when it has
 * none: every option keeps its default), `body` its instructions. The first problem found is
 * returned instead, naming the field.
 */
export function agentFromNote(path: string, frontMatter: unknown, body: string): AgentResult {
	const fail = (field: AgentField, value?: unknown): AgentResult => ({ ok: false, issue: { path, field, ...(value === undefined ? {} : { value: shown(value) }) } });
	if (frontMatter !== undefined && frontMatter !== null && !isObject(frontMatter)) return fail("frontmatter");
	const fm: Record<string, unknown> = isObject(frontMatter) ? frontMatter : {};
	const agent: Agent = { path, name: noteName(path), tools: [], sources: [], instructions: body.trim() };

	if (fm.name !== undefined && fm.name !== null) {
		if (typeof fm.name !== "string" || fm.name.trim() === "") return fail("name");
		agent.name = fm.name.trim();
	}
	if (fm.provider !== undefined && fm.provider !== null) {
		const provider = typeof fm.provider === "string" ? fm.provider.trim().toLowerCase() : undefined;
		if (provider === undefined || !(PROVIDERS as readonly string[]).includes(provider)) return fail("provider", fm.provider);
		agent.provider = provider as ProviderName;
	}
	if (fm.model !== undefined && fm.model !== null) {
		if (typeof fm.model !== "string" || fm.model.trim() === "") return fail("model");
		agent.model = fm.model.trim();
	}
	if (fm.temperature !== undefined && fm.temperature !== null) {
		const t = fm.temperature;
		if (typeof t !== "number" || !Number.isFinite(t) || t < TEMPERATURE.min || t > TEMPERATURE.max) return fail("temperature", t);
		agent.temperature = t;
	}
	if (fm.baseUrl !== undefined && fm.baseUrl !== null) {
		const url = serverAddress(fm.baseUrl);
		if (url === undefined) return fail("baseUrl", fm.baseUrl);
		agent.baseUrl = url;
	}
	if (fm.secret !== undefined && fm.secret !== null) {
		const name = typeof fm.secret === "string" ? fm.secret.trim() : undefined;
		if (name === undefined || !SECRET_ID.test(name)) return fail("secret", fm.secret);
		agent.secret = name;
	}
	const tools = listOf(fm.tools);
	if (tools === undefined) return fail("tools");
	for (const tool of tools) {
		if (typeof tool !== "string" || !(AGENT_TOOLS as readonly string[]).includes(tool.trim())) return fail("tools", tool);
		if (!agent.tools.includes(tool.trim())) agent.tools.push(tool.trim());
	}
	const writeFolders = listOf(fm.writeFolders);
	if (writeFolders === undefined) return fail("writeFolders");
	for (const entry of writeFolders) {
		const folder = folderPath(entry);
		if (folder === undefined) return fail("writeFolders", entry);
		(agent.writeFolders ??= []).push(folder);
	}
	const sources = listOf(fm.sources);
	if (sources === undefined) return fail("sources");
	for (const entry of sources) {
		const source = sourceOf(entry);
		if (source === undefined) return fail("sources", entry);
		agent.sources.push(source);
	}
	if (fm.mcp !== undefined && fm.mcp !== null) {
		const servers = listOf(fm.mcp);
		if (servers === undefined) return fail("mcp");
		agent.mcp = [];
		for (const entry of servers) {
			const name = typeof entry === "string" ? entry.trim() : undefined;
			if (name === undefined || !MCP_NAME.test(name)) return fail("mcp", entry);
			if (!agent.mcp.some((n) => n.toLowerCase() === name.toLowerCase())) agent.mcp.push(name);
		}
	}
	return { ok: true, agent };
}
