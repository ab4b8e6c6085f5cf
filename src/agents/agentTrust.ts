// What an agent may do, as the person approved it. The privileged fields of an agent note (where
// its requests go and with which key, which tools run unasked and where, what every message
// carries, and its instructions) are kept as a snapshot with a digest. An approval (stored in the
// plugin's data, never in the note) holds the digest of the version the person saw on the review
// card: a note changed since (by the person, by sync, by a model) has another digest and asks
// again. Engine-safe: never imports 'obsidian'; the digest is a pure-JS SHA-256, synchronous on
// desktop and mobile alike.
import { isFencedPath, isWithinFolder, pathSegments, type Fences } from "../core/pathFences";
import { sha256Text } from "../core/sha256";
import type { Agent, AgentSource } from "./agent";

/** The read tools an agent may offer (the others in AGENT_TOOLS write). */
export const AGENT_READ_TOOLS: readonly string[] = ["search_notes", "read_note", "list_notes", "get_active_note"];

/** The privileged fields, in the order the review card and the digest take them. */
export const PRIVILEGED_FIELDS = ["provider", "baseUrl", "model", "secret", "tools", "writeFolders", "sources", "mcp", "instructions"] as const;
export type PrivilegedField = (typeof PRIVILEGED_FIELDS)[number];

/** An agent's privileged fields: lists sorted, absent fields as null, so equal meaning gives equal text. */
export interface AgentSnapshot {
	provider: string | null;
	baseUrl: string | null;
	model: string | null;
	secret: string | null;
	tools: string[];
	writeFolders: string[];
	/** Each source as written in a note: `[[link]]` or `folder/`. */
	sources: string[];
	/**
	 * The MCP servers its chats reach (`mcp:`), sorted; null (or absent, in approvals saved before
	 * the field existed) when the note names none, so those approvals keep their digest.
	 */
	mcp?: string[] | null;
	instructions: string;
}

/** One approval, kept in the plugin's data: the note, the digest approved, what it held, when. */
export interface AgentApproval {
	path: string;
	digest: string;
	/** The fields approved, to show what changed since. */
	fields: AgentSnapshot;
	/** ISO 8601. */
	approvedAt: string;
}

const sourceText = (source: AgentSource): string => (source.type === "note" ? `[[${source.link}]]` : `${source.path}/`);
const sorted = (items: readonly string[]): string[] => [...new Set(items)].sort();

export function agentSnapshot(agent: Agent): AgentSnapshot {
	return {
		provider: agent.provider ?? null,
		baseUrl: agent.baseUrl ?? null,
		model: agent.model ?? null,
		secret: agent.secret ?? null,
		tools: sorted(agent.tools),
		writeFolders: sorted(agent.writeFolders ?? []),
		sources: sorted(agent.sources.map(sourceText)),
		mcp: agent.mcp === undefined ? null : sorted(agent.mcp.map((n) => n.toLowerCase())),
		instructions: agent.instructions.replace(/\r\n?/g, "\n"),
	};
}

/** The snapshot as one deterministic text: the fields in PRIVILEGED_FIELDS order, as JSON. */
function canonical(snapshot: AgentSnapshot): string {
	// An agent without `mcp:` digests as before the field existed: its approval stays valid. Naming
	// servers (even none: `mcp: []` turns the settings' servers off) changes the digest.
	return JSON.stringify(PRIVILEGED_FIELDS.filter((field) => field !== "mcp" || (snapshot.mcp ?? null) !== null).map((field) => [field, snapshot[field]]));
}

/** The digest an approval of these fields is stored under: SHA-256 of the canonical snapshot, hex. */
export function snapshotDigest(snapshot: AgentSnapshot): string {
	return sha256Text(canonical(snapshot));
}

/**
 * The approved digest of an agent's privileged fields (provider, baseUrl, model, secret, tools,
 * writeFolders, sources, mcp, instructions): the same for the same meaning (list order, repeats and
 * line endings aside), different when any of them changes. Name and temperature are not in it.
 */
export function agentDigest(agent: Agent): string {
	return snapshotDigest(agentSnapshot(agent));
}

/** The privileged fields that differ between two snapshots, in PRIVILEGED_FIELDS order. */
export function changedFields(before: AgentSnapshot, after: AgentSnapshot): PrivilegedField[] {
	return PRIVILEGED_FIELDS.filter((field) => JSON.stringify(before[field] ?? null) !== JSON.stringify(after[field] ?? null));
}

/** Whether `value` is a snapshot as saved (checked when the settings load). */
export function isAgentSnapshot(value: unknown): value is AgentSnapshot {
	if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
	const v = value as Record<string, unknown>;
	const textOrNull = (x: unknown): boolean => x === null || typeof x === "string";
	const texts = (x: unknown): boolean => Array.isArray(x) && x.every((i) => typeof i === "string");
	return textOrNull(v.provider) && textOrNull(v.baseUrl) && textOrNull(v.model) && textOrNull(v.secret) && texts(v.tools) && texts(v.writeFolders) && texts(v.sources) && (v.mcp === undefined || v.mcp === null || texts(v.mcp)) && typeof v.instructions === "string";
}

/** Whether `value` is a saved approval: a path, a 64-hex digest matching its fields, a real date. */
export function isAgentApproval(value: unknown): value is AgentApproval {
	if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
	const a = value as Partial<AgentApproval>;
	return (
		typeof a.path === "string" &&
		a.path.trim() !== "" &&
		typeof a.digest === "string" &&
		/^[0-9a-f]{64}$/.test(a.digest) &&
		isAgentSnapshot(a.fields) &&
		// A digest that does not match its fields was not written by Discover: it approves nothing.
		snapshotDigest(a.fields) === a.digest &&
		typeof a.approvedAt === "string" &&
		!Number.isNaN(Date.parse(a.approvedAt))
	);
}

export const isAgentApprovals = (value: unknown): value is AgentApproval[] => Array.isArray(value) && value.every(isAgentApproval);

/** An agent's standing: approved as it is, never approved, or changed since it was approved. */
export type AgentApprovalState = { state: "approved" } | { state: "new" } | { state: "changed"; approved: AgentApproval; changed: PrivilegedField[] };

/** The approval that covers `agent` as it is now, or why none does. The built-in agent (no note) needs none. */
export function approvalState(agent: Agent, approvals: readonly AgentApproval[]): AgentApprovalState {
	if (agent.path === "") return { state: "approved" };
	const mine = approvals.filter((a) => a.path === agent.path);
	const digest = agentDigest(agent);
	if (mine.some((a) => a.digest === digest)) return { state: "approved" };
	const last = mine.reduce<AgentApproval | undefined>((latest, a) => (latest === undefined || a.approvedAt > latest.approvedAt ? a : latest), undefined);
	return last === undefined ? { state: "new" } : { state: "changed", approved: last, changed: changedFields(last.fields, agentSnapshot(agent)) };
}

/** The approvals after approving `agent` as it is now: one record per note (the newest replaces older ones). */
export function withApproval(approvals: readonly AgentApproval[], agent: Agent, now: Date): AgentApproval[] {
	const fields = agentSnapshot(agent);
	return [...approvals.filter((a) => a.path !== agent.path), { path: agent.path, digest: snapshotDigest(fields), fields, approvedAt: now.toISOString() }];
}

/** Whether `tool` is one of the agent's read tools (the rest of AGENT_TOOLS write). */
export const isReadTool = (tool: string): boolean => AGENT_READ_TOOLS.includes(tool);

/**
 * Whether the agent lets a call of `tool` run without asking (for the permission rules). Only an
 * approved agent allows anything, and only the tools its `tools:` lists: a read tool anywhere it
 * reads, a write tool only when every path it writes is inside one of the agent's `writeFolders`
 * (compared by pathFences, with no `..` segment) and, given `fences`, none is in a fenced place.
 * Anything else asks. For the permission rules: `approved` is `approvalState(agent, …)` being
 * "approved"; `paths` are every vault path the call would write (a move: both ends).
 */
export function agentAllowsUnasked(agent: Agent | undefined, approved: boolean, tool: string, paths: readonly string[], access: "read" | "write", fences?: Fences): boolean {
	if (agent === undefined || !approved || !agent.tools.includes(tool)) return false;
	if (access === "read") return true;
	// A folder naming the whole vault is refused when the note is read; it is never a grant here either.
	const folders = (agent.writeFolders ?? []).filter((folder) => pathSegments(folder).length > 0);
	if (paths.length === 0 || folders.length === 0) return false;
	// A `..` segment could climb out of the folder it seems to be in: such a path always asks.
	const climbs = (path: string): boolean => path.split(/[\\/]/).some((segment) => segment.trim() === "..");
	return paths.every((path) => !climbs(path) && folders.some((folder) => isWithinFolder(path, folder)) && (fences === undefined || !isFencedPath(path, fences)));
}

/**
 * The MCP servers a chat with `agent` may reach: an approved agent's `mcp:` list (undefined when it
 * names none: the servers turned on in settings, as a chat without an agent). An agent not approved
 * as it is reaches none: a note changed by sync or a model to name more servers widens nothing until
 * the person approves it. No agent: the settings' servers.
 */
export function agentMcpServers(agent: Agent | undefined, approved: boolean): readonly string[] | undefined {
	if (agent === undefined) return undefined;
	if (!approved) return [];
	return agent.mcp;
}
