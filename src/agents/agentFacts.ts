// What an agent would do, as plain facts for its review card: where its requests (with the
// person's messages and notes) go, which key goes with them and why, which writes run unasked and
// where, what every message carries. Computed from the same rule the requests use (keyBinding's
// keyFor), so the card can never say one thing while the chat does another. Engine-safe.
import { keyFor, originOf, type KeySettings } from "../settings/keyBinding";
import type { Agent } from "./agent";
import { agentSnapshot, isReadTool, PRIVILEGED_FIELDS, type AgentSnapshot } from "./agentTrust";

export type KeyFact =
	/** The agent's own secret, to its own server. */
	| { kind: "own"; secret: string }
	/** The settings' key: the agent's server is the settings' one. */
	| { kind: "settings"; secret: string }
	/** No key is set anywhere for this server. */
	| { kind: "none" }
	/** The settings' key exists but is for another server, and the agent names none of its own. */
	| { kind: "withheld"; settingsOrigin: string }
	/** The agent's `secret:` is the settings' key, which goes only to the settings' server. */
	| { kind: "bound"; secret: string; settingsOrigin: string };

export interface AgentFacts {
	provider: string;
	/** The origin the requests go to (scheme, host, port). */
	origin: string;
	/** Undefined: the chat's model. */
	model: string | undefined;
	key: KeyFact;
	/** Folders where its write tools run without asking (only when it offers a write tool). */
	unaskedWriteFolders: string[];
	/** It offers a write tool: writes outside those folders ask each time. */
	writes: boolean;
	/** It offers a read tool, which runs without asking. */
	reads: boolean;
	/** What every message carries, as written in a note (`[[link]]`, `folder/`). */
	sources: string[];
	/** The MCP servers its chats reach, as the note names them (`mcp:`); undefined: the servers turned on in settings. */
	mcp: string[] | undefined;
}

export function agentFacts(agent: Agent, settings: KeySettings): AgentFacts {
	const server = keyFor(settings, { path: agent.path, provider: agent.provider, baseUrl: agent.baseUrl, secret: agent.secret });
	const settingsOrigin = originOf(settings.baseUrl) ?? settings.baseUrl;
	let key: KeyFact;
	if (server.secret !== undefined) key = agent.secret !== undefined ? { kind: "own", secret: server.secret } : { kind: "settings", secret: server.secret };
	else if (server.withheld === "bound-elsewhere") key = { kind: "bound", secret: agent.secret ?? "", settingsOrigin };
	else if (server.withheld === "own-secret-needed") key = { kind: "withheld", settingsOrigin };
	else key = { kind: "none" };
	const snapshot = agentSnapshot(agent);
	const writes = agent.tools.some((tool) => !isReadTool(tool));
	return {
		provider: server.provider,
		origin: originOf(server.baseUrl) ?? server.baseUrl,
		model: agent.model,
		key,
		unaskedWriteFolders: writes ? snapshot.writeFolders : [],
		writes,
		reads: agent.tools.some(isReadTool),
		sources: snapshot.sources,
		mcp: agent.mcp === undefined ? undefined : [...agent.mcp],
	};
}

/** The privileged fields as lines of text (for the diff between the approved version and now). */
export function snapshotText(snapshot: AgentSnapshot): string {
	const lines: string[] = [];
	for (const field of PRIVILEGED_FIELDS) {
		const value = snapshot[field];
		if (field === "instructions") lines.push("instructions:", ...String(value).split("\n").map((line) => `  ${line}`));
		// Absent (the settings' servers) and named are different grants: both show.
		else if (field === "mcp") lines.push(`mcp: ${Array.isArray(value) ? `[${value.join(", ")}]` : "(the servers turned on in settings)"}`);
		else lines.push(`${field}: ${Array.isArray(value) ? value.join(", ") : (value ?? "")}`);
	}
	return `${lines.join("\n")}\n`;
}
