// Who may run which tool without asking. The standing rules, checked in this order:
// 1. read tools run unasked while the `toolsReadAllowed` setting is on (the default);
// 2. an "always" rule (saved in settings with when it was granted; revocable in the settings tab);
// 3. "allow for this chat" (this session only, kept in memory, forgotten with the plugin);
// 4. the chat's agent allows the tool (its note's `tools`: pre-approved, visible and revocable there);
// otherwise the person is asked, with the write's preview, through the panel's `ask` callback,
// every time. Allow once lets this call run; Deny (with an optional reason) gives the model a
// clear result. A preview that cannot be made means the write cannot be shown, so it is not run:
// the model gets the reason instead. Nothing here imports the UI: the panel implements `ask`.
import type { ToolApproval, ToolCall } from "../core/types";
import type { Tool, ToolPreview } from "./types";

export type AccessDecision = { kind: "once" } | { kind: "chat" } | { kind: "always" } | { kind: "deny"; reason?: string };

/** A saved "always allow" rule. (An agent's allowed tools will become rules of this shape.) */
export interface AlwaysRule {
	tool: string;
	/** ISO 8601. */
	grantedAt: string;
}

/** Where the rules live: the plugin's settings (toolsReadAllowed, toolRules). */
export interface RuleStore {
	readAllowed(): boolean;
	alwaysRules(): readonly AlwaysRule[];
	saveAlwaysRules(rules: AlwaysRule[]): Promise<void>;
}

/**
 * The tools each chat's agent allows, and where "Always allow" goes in a chat with an agent: into
 * the agent (its note's front matter), not the settings, so it shows where the agent is defined.
 */
export interface AgentGrants {
	/** The tools chat `chatId`'s agent runs without asking. */
	allowed(chatId: string): readonly string[];
	/** Adds `tool` to chat `chatId`'s agent; false when the chat's agent cannot take it (then the settings' rules do). */
	grant(chatId: string, tool: string): Promise<boolean>;
}

/** The panel's permission card: shown for a call no rule allows; resolves with the person's decision. */
export type AskFn = (call: ToolCall, tool: Tool, preview: ToolPreview | undefined) => Promise<AccessDecision>;

/** The engine's `approve(call, tool)` (ChatServiceOptions.approve); a denial carries the reason the model is told. */
export type Approve = (call: ToolCall, tool: Tool) => Promise<ToolApproval>;

/** A person's reason is sent to the model; a very long one is cut. */
const REASON_CHARS = 500;

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

	isAlways(tool: string): boolean {
		return this.store.alwaysRules().some((r) => r.tool === tool);
	}

	async grantAlways(tool: string): Promise<void> {
		if (this.isAlways(tool)) return;
		await this.store.saveAlwaysRules([...this.store.alwaysRules(), { tool, grantedAt: this.now().toISOString() }]);
	}

	async revoke(tool: string): Promise<void> {
		await this.store.saveAlwaysRules(this.store.alwaysRules().filter((r) => r.tool !== tool));
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

	/** Whether `tool` runs unasked in chat `chatId`. */
	allowsUnasked(chatId: string, tool: Pick<Tool, "name" | "access">): boolean {
		if (tool.access === "read" && this.store.readAllowed()) return true;
		return this.isAlways(tool.name) || this.chatAllows(chatId, tool.name) || this.agents?.allowed(chatId).includes(tool.name) === true;
	}

	/**
	 * The engine's `approve` for chat `chatId`, asking through `ask` when no rule allows a call. A
	 * denial is `{ deny: reason }` (the loop tells the model "The person declined: reason"); a
	 * failed `ask` is "no answer", as the loop's own time-out.
	 */
	approverFor(chatId: string, ask: AskFn): Approve {
		return async (call, tool) => {
			if (this.allowsUnasked(chatId, tool)) return "allow";
			let preview: ToolPreview | undefined;
			if (tool.access === "write" && tool.preview) {
				try {
					preview = await tool.preview(call.arguments);
				} catch (err) {
					// Never write what the person could not be shown.
					return { deny: `the change could not be shown for approval, so nothing was written (${err instanceof Error ? err.message : String(err)})` };
				}
			}
			let decision: AccessDecision;
			try {
				decision = await ask(call, tool, preview);
			} catch {
				return { deny: "no answer" };
			}
			switch (decision.kind) {
				case "once":
					return "allow";
				case "chat":
					this.allowForChat(chatId, tool.name);
					return "allow";
				case "always":
					if (!(await this.agents?.grant(chatId, tool.name))) await this.grantAlways(tool.name);
					return "allow";
				default: {
					const why = decision.reason?.trim().slice(0, REASON_CHARS) ?? "";
					return why ? { deny: why } : "deny";
				}
			}
		};
	}
}
