// Who may run which tool without asking. The standing rules, checked in this order:
// 1. read tools run unasked while the `toolsReadAllowed` setting is on (the default);
// 2. a write whose text holds something another plugin may run (Templater, DataviewJS, an
//    obsidian:// URI: see contentMarks.ts) is asked every time, whatever rule stands;
// 3. "allow for this chat" (per tool, this session only, kept in memory, forgotten with the plugin;
//    like every standing grant, never for a fenced target);
// 4. an "always" rule (saved in settings with when it was granted; revocable in the settings tab),
//    scoped: it covers a write only when every path the call writes is inside the rule's folder
//    ("" = the whole vault, by explicit choice), none of them is fenced (config, chats, agents,
//    excluded folders), and, for a rule limited to an agent, the chat's agent is that agent;
// 5. the chat's agent, approved by the person, writing inside the folders it named (AgentGrants);
// an MCP tool (`tool.mcp`) is asked every time too: the server's annotations (readOnlyHint…) never
// skip asking, the read setting and folder rules never reach it; only "allow for this chat" and an
// "always" rule scoped to this tool of this server (AlwaysRule.mcp; optionally limited to the agent);
// otherwise the person is asked, with the write's preview, through the panel's `ask` callback,
// every time. Allow once lets this call run; Deny (with an optional reason) gives the model a
// clear result. A preview that cannot be made means the write cannot be shown, so it is not run:
// the model gets the reason instead. A write whose targets cannot be told is covered by no rule.
// Nothing here imports the UI: the panel implements `ask`.
import type { ToolApproval, ToolCall } from "../core/types";
import { isFencedPath, isWithinFolder, pathSegments, type Fences } from "../core/pathFences";
import { writeMarks, type ContentMark } from "./contentMarks";
import type { Tool, ToolPreview } from "./types";

/** How far an "Always allow" goes: the folder of the path in the card, or the whole vault; optionally only for the chat's agent. */
export interface AlwaysScope {
	/** "folder" (the default): the folder of the path in the card. "vault": everywhere, by explicit choice. */
	scope?: "folder" | "vault";
	/** Only while the chat's agent is this chat's agent. */
	onlyAgent?: boolean;
}

export type AccessDecision = { kind: "once" } | { kind: "chat" } | ({ kind: "always" } & AlwaysScope) | { kind: "deny"; reason?: string };

/** A saved "always allow" rule. */
export interface AlwaysRule {
	tool: string;
	/** "" = the whole vault; otherwise a vault folder (or, for a note at the vault's root, that note). */
	folder: string;
	/** The agent note's path the rule is limited to; absent: any chat. */
	agent?: string;
	/** An MCP tool's rule: this tool of this server only (`folder` is then ""). */
	mcp?: McpRuleScope;
	/** ISO 8601. */
	grantedAt: string;
}

/** The scope of an MCP tool's rule: the server (as the person named it) and the tool's name there. */
export interface McpRuleScope {
	server: string;
	tool: string;
}

function sameMcp(a: McpRuleScope | undefined, b: McpRuleScope | undefined): boolean {
	return a === undefined || b === undefined ? a === b : a.server === b.server && a.tool === b.tool;
}

/** Where the rules live: the plugin's settings (toolsReadAllowed, toolRules). */
export interface RuleStore {
	readAllowed(): boolean;
	alwaysRules(): readonly AlwaysRule[];
	saveAlwaysRules(rules: AlwaysRule[]): Promise<void>;
	/** Where no rule reaches (read at each call); absent: no fence besides the tools' own. */
	fences?(): Fences;
}

/**
 * The chat's agent in the permission rules. Its `tools` make tools available; its writes run
 * unasked only while the person has approved the agent, and only inside its `writeFolders`.
 */
export interface AgentGrants {
	/** Whether chat `chatId`'s agent runs `tool` unasked on `paths` (the call's targets; [] for a read). `access`: the tool's (default: a read when there are no paths). */
	allowsUnasked(chatId: string, tool: string, paths: readonly string[], access?: "read" | "write"): boolean;
	/** The agent note's path of chat `chatId`, for rules limited to an agent; undefined without one. */
	agentOf(chatId: string): string | undefined;
}

/** What the card is told besides the call: what marks the write, and what "Always allow" may offer. */
export interface AskInfo {
	/** What in the write's text another plugin may run; non-empty: asked every time, no standing choice offered. */
	marks: ContentMark[];
	/** The folder "Always allow" defaults to (the folder of the path in the card); undefined: no folder scope. */
	folder?: string;
	/** The chat's agent (its note's path), for "only for this agent". */
	agent?: string;
	/** An MCP tool: "Always allow" means this tool of this server, nothing wider. */
	mcp?: McpRuleScope;
}

/** The panel's permission card: shown for a call no rule allows; resolves with the person's decision. */
export type AskFn = (call: ToolCall, tool: Tool, preview: ToolPreview | undefined, info?: AskInfo) => Promise<AccessDecision>;

/** The engine's `approve(call, tool)` (ChatServiceOptions.approve); a denial carries the reason the model is told. */
export type Approve = (call: ToolCall, tool: Tool) => Promise<ToolApproval>;

/** A person's reason is sent to the model; a very long one is cut. */
const REASON_CHARS = 500;

const NO_FENCES: Fences = { configDir: "", chatsFolder: "", agentsFolder: "", excluded: [] };

/** The folder "Always allow" defaults to for a write to `path`: its folder, or the note itself at the vault's root. */
export function folderScopeOf(path: string): string {
	const segments = path.split("/").filter((s) => s.trim() !== "");
	return segments.length > 1 ? segments.slice(0, -1).join("/") : segments.join("/");
}

/** The paths a write call writes, or undefined when they cannot be told (then no standing rule covers it). */
export function writeTargets(tool: Pick<Tool, "targets">, args: Record<string, unknown>): string[] | undefined {
	if (!tool.targets) return undefined;
	try {
		const paths = tool.targets(args);
		return paths.length > 0 && paths.every((p) => typeof p === "string" && pathSegments(p).length > 0) ? paths : undefined;
	} catch {
		return undefined;
	}
}

export class PermissionRules {
	private readonly perChat = new Map<string, Set<string>>();

	constructor(
		private readonly store: RuleStore,
		private readonly now: () => Date = () => new Date(),
		private readonly agents?: AgentGrants,
	) {}

	alwaysRules(): readonly AlwaysRule[] {
		return this.store.alwaysRules();
	}

	private fences(): Fences {
		return this.store.fences?.() ?? NO_FENCES;
	}

	/** Whether some rule for `tool` stands (in any scope). */
	isAlways(tool: string): boolean {
		return this.store.alwaysRules().some((r) => r.tool === tool);
	}

	/**
	 * Saves an "always" rule for `tool` in `folder` ("" = the whole vault, the default for a call
	 * from code), optionally limited to `agent`. A rule over a fenced folder is refused (false).
	 */
	async grantAlways(tool: string, scope: { folder?: string; agent?: string; mcp?: McpRuleScope } = {}): Promise<boolean> {
		const folder = scope.mcp !== undefined ? "" : (scope.folder ?? "");
		if (pathSegments(folder).length > 0 && isFencedPath(folder, this.fences())) return false;
		const same = (r: AlwaysRule): boolean => r.tool === tool && pathSegments(r.folder).join("/") === pathSegments(folder).join("/") && (r.agent ?? "") === (scope.agent ?? "") && sameMcp(r.mcp, scope.mcp);
		if (this.store.alwaysRules().some(same)) return true;
		const rule: AlwaysRule = { tool, folder, ...(scope.agent ? { agent: scope.agent } : {}), ...(scope.mcp ? { mcp: { server: scope.mcp.server, tool: scope.mcp.tool } } : {}), grantedAt: this.now().toISOString() };
		await this.store.saveAlwaysRules([...this.store.alwaysRules(), rule]);
		return true;
	}

	/** Revokes every rule for `tool`. */
	async revoke(tool: string): Promise<void> {
		await this.store.saveAlwaysRules(this.store.alwaysRules().filter((r) => r.tool !== tool));
	}

	/** Revokes one rule (same tool, folder and agent). */
	async revokeRule(rule: Pick<AlwaysRule, "tool" | "folder" | "agent">): Promise<void> {
		await this.store.saveAlwaysRules(this.store.alwaysRules().filter((r) => !(r.tool === rule.tool && r.folder === rule.folder && (r.agent ?? "") === (rule.agent ?? ""))));
	}

	allowForChat(chatId: string, tool: string): void {
		let set = this.perChat.get(chatId);
		if (!set) this.perChat.set(chatId, (set = new Set()));
		set.add(tool);
	}

	chatAllows(chatId: string, tool: string): boolean {
		return this.perChat.get(chatId)?.has(tool) === true;
	}

	forgetChat(chatId: string): void {
		this.perChat.delete(chatId);
	}

	/**
	 * Whether a saved rule covers `tool` writing `paths` in chat `chatId`: every path inside the
	 * rule's folder and none fenced. A read (paths undefined, access "read") needs only the tool and agent.
	 */
	ruleCovers(chatId: string, tool: Pick<Tool, "name" | "access">, paths: readonly string[] | undefined): boolean {
		if (tool.access === "write" && (paths === undefined || paths.length === 0)) return false;
		const fences = this.fences();
		if (paths?.some((p) => isFencedPath(p, fences))) return false;
		const agent = this.agents?.agentOf(chatId);
		return this.store.alwaysRules().some((r) => {
			if (r.tool !== tool.name) return false;
			if (r.agent !== undefined && r.agent !== agent) return false;
			if (pathSegments(r.folder).length > 0 && isFencedPath(r.folder, fences)) return false;
			return (paths ?? []).every((p) => isWithinFolder(p, r.folder));
		});
	}

	/**
	 * Whether `tool` runs unasked in chat `chatId` on `paths` (a write's targets). Asked without
	 * paths, a write counts as allowed only by "this chat" or a whole-vault rule for every chat
	 * (the question older callers ask); `approverFor` always passes the call's real targets and
	 * checks the content marks first.
	 */
	allowsUnasked(chatId: string, tool: Pick<Tool, "name" | "access">, paths?: readonly string[]): boolean {
		if (tool.access === "read" && this.store.readAllowed()) return true;
		if (tool.access === "write") {
			if (paths === undefined) return this.chatAllows(chatId, tool.name) || this.store.alwaysRules().some((r) => r.tool === tool.name && r.agent === undefined && pathSegments(r.folder).length === 0);
			// No standing grant, not even "this chat", reaches a fenced place.
			const fences = this.fences();
			if (paths.length === 0 || paths.some((p) => isFencedPath(p, fences))) return false;
		}
		if (this.chatAllows(chatId, tool.name)) return true;
		if (this.ruleCovers(chatId, tool, tool.access === "write" ? paths : undefined)) return true;
		return this.agents?.allowsUnasked(chatId, tool.name, paths ?? [], tool.access) === true;
	}

	/**
	 * The engine's `approve` for chat `chatId`, asking through `ask` when no rule allows a call. A
	 * denial is `{ deny: reason }` (the loop tells the model "The person declined: reason"); a
	 * failed `ask` is "no answer", as the loop's own time-out.
	 */
	approverFor(chatId: string, ask: AskFn): Approve {
		return async (call, tool) => {
			if (tool.mcp !== undefined) {
				if (this.mcpAllowsUnasked(chatId, tool)) return "allow";
				return this.decide(chatId, call, tool, undefined, { marks: [], ...this.agentInfo(chatId), mcp: { server: tool.mcp.server, tool: tool.mcp.tool } }, ask);
			}
			if (tool.access === "read") {
				if (this.allowsUnasked(chatId, tool, [])) return "allow";
				return this.decide(chatId, call, tool, undefined, { marks: [], ...this.agentInfo(chatId) }, ask);
			}
			const targets = writeTargets(tool, call.arguments);
			let preview: ToolPreview | undefined;
			let previewError: string | undefined;
			if (tool.preview) {
				try {
					preview = await tool.preview(call.arguments);
				} catch (err) {
					previewError = err instanceof Error ? err.message : String(err);
				}
			}
			const marks = writeMarks(call.arguments, preview);
			// Marked writes are asked every time; otherwise the standing rules (with the call's real targets).
			// A write whose targets cannot be told gets no standing grant: it is asked (or refused, unshowable).
			if (marks.length === 0 && targets !== undefined && this.allowsUnasked(chatId, tool, targets)) return "allow";
			// Never write what the person could not be shown.
			if (previewError !== undefined) return { deny: `the change could not be shown for approval, so nothing was written (${previewError})` };
			const info: AskInfo = { marks, ...this.agentInfo(chatId), ...(targets?.[0] !== undefined ? { folder: folderScopeOf(targets[0]) } : {}) };
			return this.decide(chatId, call, tool, preview, info, ask, targets);
		};
	}

	/**
	 * Whether an MCP tool runs unasked in chat `chatId`: "this chat", or a rule for this tool of this
	 * server (an agent-limited one only in that agent's chats). Nothing else reaches it.
	 */
	mcpAllowsUnasked(chatId: string, tool: Pick<Tool, "name" | "mcp">): boolean {
		const origin = tool.mcp;
		if (origin === undefined) return false;
		if (this.chatAllows(chatId, tool.name)) return true;
		const agent = this.agents?.agentOf(chatId);
		return this.store.alwaysRules().some((r) => r.tool === tool.name && r.mcp !== undefined && r.mcp.server === origin.server && r.mcp.tool === origin.tool && (r.agent === undefined || r.agent === agent));
	}

	private agentInfo(chatId: string): { agent?: string } {
		const agent = this.agents?.agentOf(chatId);
		return agent ? { agent } : {};
	}

	private async decide(chatId: string, call: ToolCall, tool: Tool, preview: ToolPreview | undefined, info: AskInfo, ask: AskFn, targets?: string[]): Promise<ToolApproval> {
		let decision: AccessDecision;
		try {
			decision = await ask(call, tool, preview, info);
		} catch {
			return { deny: "no answer" };
		}
		switch (decision.kind) {
			case "once":
				return "allow";
			case "chat":
				this.allowForChat(chatId, tool.name);
				return "allow";
			case "always": {
				if (info.mcp !== undefined) {
					const agent = decision.onlyAgent === true ? info.agent : undefined;
					await this.grantAlways(tool.name, { mcp: info.mcp, ...(agent ? { agent } : {}) });
					return "allow";
				}
				// A read's rule is the tool's, vault-wide; a write's is the card's folder unless the person chose the vault.
				const folder = tool.access === "read" || decision.scope === "vault" ? "" : info.folder;
				const agent = decision.onlyAgent === true ? info.agent : undefined;
				// A write whose folder cannot be told gets no standing rule: this call alone is allowed.
				if (folder !== undefined && (tool.access === "read" || targets !== undefined)) await this.grantAlways(tool.name, { folder, ...(agent ? { agent } : {}) });
				return "allow";
			}
			default: {
				const why = decision.reason?.trim().slice(0, REASON_CHARS) ?? "";
				return why ? { deny: why } : "deny";
			}
		}
	}
}
