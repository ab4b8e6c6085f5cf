// Tools from outside the engine (MCP servers, through the hub the wiring hands in) for one turn:
// asked for when the turn starts, their schemas cleaned for the turn's dialect (toolSchema.ts), put
// in a fixed order after the vault tools, and what went wrong said as warnings, never failures. The
// engine does not import src/mcp: the hub's McpToolSource fits TurnToolSource as it is.
import { cleanToolSchema, type SchemaDialect } from "./toolSchema";
import { untilAborted } from "../core/abortable";
import type { OutsideToolSource, Tool, ToolSourceProblem } from "../core/types";
import type { ChatEvent } from "./turnPrompt";
import type { CheckpointTimers } from "./answerCheckpoint";

/** A server that could not give its tools for a turn (the one shape, in src/core/types.ts). */
export type OutsideToolProblem = ToolSourceProblem;

/** Where a turn's outside tools come from: src/mcp's hub is one (the one shape, in src/core/types.ts). */
export type TurnToolSource = OutsideToolSource;

/** The most tools one request carries (OpenAI refuses more than 128): MCP tools past it are turned off for the turn. */
export const MAX_TOOLS_A_REQUEST = 128;

/** How long a turn waits for the servers' tools before it goes on without the ones not given. */
export const OUTSIDE_TOOLS_WAIT_MS = 60_000;

/** The dialect a provider's adapter speaks (`providerOf`): anything else is cleaned as OpenAI-compatible. */
export function schemaDialectOf(provider: string | undefined): SchemaDialect {
	return provider === "anthropic" || provider === "ollama" ? provider : "openai";
}

type Warning = Extract<ChatEvent, { type: "warning" }>;

/** A tool turned off for the turn, and why. */
interface OffTool {
	server: string;
	tool: string;
	reason: string;
}

function serverOf(tool: Tool): string {
	return tool.mcp?.server ?? tool.name.split("__")[0] ?? tool.name;
}

/** Each server's tools as a signature (name and schema), to tell a changed list from the last turn's. */
function signatures(tools: readonly Tool[]): Map<string, Map<string, string>> {
	const out = new Map<string, Map<string, string>>();
	for (const t of tools) {
		const server = serverOf(t);
		let list = out.get(server);
		if (list === undefined) out.set(server, (list = new Map<string, string>()));
		list.set(t.name, JSON.stringify([t.description, t.parameters]));
	}
	return out;
}

export interface OutsideTools {
	tools: Tool[];
	warnings: Warning[];
}

/** The chats remembered (the ones used longest ago are forgotten whole: such a chat starts afresh). */
export const MAX_REMEMBERED_CHATS = 200;
/** The warnings one chat remembers having been told (its oldest are forgotten, and may be said again). */
const MAX_TOLD_A_CHAT = 200;

/** What one chat's turns were given: each server's list as last offered, and the warnings said. */
interface ChatMemory {
	/** Undefined until its first turn: nothing changed "since its last message" on a new chat. */
	offered?: Map<string, Map<string, string>>;
	told: Set<string>;
}

/**
 * What a chat's turns know of the outside tools: the last set (the preview prices it before the next
 * turn asks) and, per chat, each server's list as last offered (a change is said) and what it was
 * told. One map, one bound: the chats used longest ago are forgotten.
 */
export class OutsideToolState {
	private last: Tool[] = [];
	/** Per chat, most recently used last. */
	private readonly chats = new Map<string, ChatMemory>();

	constructor(
		private readonly source: TurnToolSource,
		private readonly timers: CheckpointTimers,
		private readonly waitMs = OUTSIDE_TOOLS_WAIT_MS,
	) {}

	/** How many chats are remembered (at most MAX_REMEMBERED_CHATS). */
	get rememberedChats(): number {
		return this.chats.size;
	}

	/** The chat's memory, marked as the most recently used (a new one may push out the one used longest ago). */
	private memoryOf(chatId: string): ChatMemory {
		const memory = this.chats.get(chatId) ?? { told: new Set<string>() };
		this.chats.delete(chatId);
		this.chats.set(chatId, memory);
		if (this.chats.size > MAX_REMEMBERED_CHATS) this.chats.delete(this.chats.keys().next().value as string);
		return memory;
	}

	/** The tools the last turn offered, for the preview. */
	get lastTools(): readonly Tool[] {
		return this.last;
	}

	/** The outside tools for a turn in `dialect`; never throws (a failure is a warning and no tools). Stop ends the wait at once. */
	async forTurn(servers: readonly string[] | undefined, dialect: SchemaDialect, signal: AbortSignal, chatId: string, taken: ReadonlySet<string>): Promise<OutsideTools> {
		const warnings: Warning[] = [];
		let given: { tools: Tool[]; problems: OutsideToolProblem[] };
		const limit = new AbortController();
		const onAbort = (): void => limit.abort();
		signal.addEventListener("abort", onAbort, { once: true });
		const timer = this.timers.set(() => limit.abort(), this.waitMs);
		try {
			given = await untilAborted(Promise.resolve().then(() => this.source.toolsFor(servers, limit.signal)), limit.signal);
		} catch (err) {
			if (signal.aborted) throw err;
			const why = limit.signal.aborted ? `no answer within ${Math.round(this.waitMs / 1000)} s` : err instanceof Error ? err.message : String(err);
			given = { tools: [], problems: [{ server: "", message: why }] };
		} finally {
			this.timers.clear(timer);
			signal.removeEventListener("abort", onAbort);
		}
		const memory = this.memoryOf(chatId);
		for (const p of given.problems) this.once(memory, `problem\u0000${p.server}\u0000${p.message}`, warnings, { type: "warning", message: p.server === "" ? `The MCP servers' tools could not be had: ${p.message}. Answering without them.` : `The MCP server "${p.server}" is not available: ${p.message}. Answering without its tools.`, code: "mcp_server_unavailable", params: { server: p.server }, detail: p.message });
		const tools: Tool[] = [];
		const off: OffTool[] = [];
		const names = new Set(taken);
		const sorted = [...(Array.isArray(given.tools) ? given.tools : [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
		for (const tool of sorted) {
			const server = serverOf(tool);
			const name = tool.mcp?.tool ?? tool.name;
			if (names.size >= MAX_TOOLS_A_REQUEST) {
				off.push({ server, tool: name, reason: `over the ${MAX_TOOLS_A_REQUEST} tools one request can carry` });
				continue;
			}
			if (names.has(tool.name)) {
				off.push({ server, tool: name, reason: `another tool is already named ${tool.name}` });
				continue;
			}
			const cleaned = cleanToolSchema(tool.parameters, dialect);
			if (!cleaned.ok) {
				off.push({ server, tool: name, reason: cleaned.reason });
				continue;
			}
			names.add(tool.name);
			tools.push(withParameters(tool, cleaned.schema));
		}
		const byServer = new Map<string, OffTool[]>();
		for (const o of off) byServer.set(o.server, [...(byServer.get(o.server) ?? []), o]);
		for (const [server, list] of byServer) {
			const shown = list.slice(0, 20).map((o) => `${o.tool}: ${o.reason}`);
			const detail = list.length > shown.length ? `${shown.join("; ")}; and ${list.length - shown.length} more` : shown.join("; ");
			this.once(memory, `off\u0000${server}\u0000${dialect}\u0000${detail}`, warnings, { type: "warning", message: `${list.length} tool${list.length === 1 ? "" : "s"} of the MCP server "${server}" ${list.length === 1 ? "was" : "were"} turned off for this model: ${detail}.`, code: "mcp_tools_off", params: { server, count: list.length }, detail });
		}
		warnings.push(...changes(tools, memory));
		this.last = tools;
		return { tools, warnings };
	}

	/** Says `warning` unless this chat was told it already. */
	private once(memory: ChatMemory, key: string, into: Warning[], warning: Warning): void {
		if (memory.told.has(key)) return;
		memory.told.add(key);
		if (memory.told.size > MAX_TOLD_A_CHAT) memory.told.delete(memory.told.values().next().value as string);
		into.push(warning);
	}
}

/** What changed in each server's list since this chat's last turn (none on its first); remembers the list now offered. */
function changes(tools: readonly Tool[], memory: ChatMemory): Warning[] {
	const now = signatures(tools);
	const before = memory.offered;
	memory.offered = now;
	if (before === undefined) return [];
	const out: Warning[] = [];
	for (const server of new Set([...before.keys(), ...now.keys()])) {
		const was = before.get(server) ?? new Map<string, string>();
		const is = now.get(server) ?? new Map<string, string>();
		const added = [...is.keys()].filter((n) => !was.has(n));
		const removed = [...was.keys()].filter((n) => !is.has(n));
		const changed = [...is.keys()].filter((n) => was.has(n) && was.get(n) !== is.get(n));
		if (added.length + removed.length + changed.length === 0) continue;
		const parts = [added.length > 0 ? `added ${added.join(", ")}` : "", removed.length > 0 ? `removed ${removed.join(", ")}` : "", changed.length > 0 ? `changed ${changed.join(", ")}` : ""].filter((p) => p !== "");
		const detail = parts.join("; ");
		out.push({ type: "warning", message: `The tools of the MCP server "${server}" changed since the last message (${detail}). This message uses the new list.`, code: "mcp_tools_changed", params: { server, added: added.length, removed: removed.length, changed: changed.length }, detail });
	}
	return out;
}

/** The tool with its parameters as cleaned (the rest, run included, as given). */
function withParameters(tool: Tool, parameters: Record<string, unknown>): Tool {
	return Object.assign(Object.create(Object.getPrototypeOf(tool) as object | null) as Tool, tool, { parameters });
}

/** The warning a server's list_changed gives mid-chat: shown, not obeyed until the next message. */
export function listChangedWarning(server: string): Warning {
	return { type: "warning", message: `The MCP server "${server}" says its tools changed. The new list applies from your next message.`, code: "mcp_tools_list_changed", params: { server } };
}
