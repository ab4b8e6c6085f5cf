// The headless contract for tools, written out as a script calls it: the tool
// vocabulary, the vault tools over an injected VaultAccess, their undo journal and the permission
// rules. Each name below is used here; removing one from src/headless.ts fails tsc or this test.
import { describe, expect, it } from "vitest";
import * as headless from "../../src/headless";
import {
	ChangeJournal,
	ChatService,
	MemoryFileStore,
	MemoryVault,
	PermissionRules,
	SessionManager,
	ToolError,
	createVaultTools,
	tagsOf,
	type AccessDecision,
	type AlwaysRule,
	type Approve,
	type AskFn,
	type LLMAdapter,
	type NoteChange,
	type RuleStore,
	type Tool,
	type ToolApproval,
	type ToolCall,
	type ToolPreview,
	type ToolRunContext,
	type ToolScope,
	type ToolSpec,
	type VaultAccess,
	type VaultNote,
	type VaultTool,
	type VaultTools,
} from "../../src/headless";

// --- The shapes, as the issue states them -------------------------------------------------------
type ContractToolSpec = { name: string; description: string; parameters: Record<string, unknown> };
type ContractToolCall = { id: string; name: string; arguments: Record<string, unknown> };
type ContractTool = ContractToolSpec & { access: "read" | "write"; run(args: Record<string, unknown>, ctx: { signal: AbortSignal }): Promise<string> };
const checkSpec: ContractToolSpec = null as unknown as ToolSpec;
const checkCall: ContractToolCall = null as unknown as ToolCall;
const checkTool: ContractTool = null as unknown as Tool;
// A vault tool is a Tool the loop can run, with an optional preview for writes.
const checkVaultTool: Tool = null as unknown as VaultTool;
const checkPreview: { path: string; before: string; after: string; diff: string } = null as unknown as ToolPreview;
const checkPreviewFn: ((args: Record<string, unknown>) => Promise<ToolPreview>) | undefined = null as unknown as VaultTool["preview"];
const checkApproval: ToolApproval[] = ["allow", "deny", { deny: "not now" }];
const checkRunContext: { signal: AbortSignal; callId?: string } = null as unknown as ToolRunContext;
const checkScope: ToolScope = { chatsFolder: () => "Discover/Chats", excludedFolders: () => [] };
const checkNote: { path: string; size: number; mtime: number; tags: string[] } = null as unknown as VaultNote;
const checkVault: Pick<VaultAccess, "configDir" | "listNotes" | "exists" | "read" | "process" | "create" | "trash" | "active" | "search"> = null as unknown as VaultAccess;
const checkVaultTools: { tools: VaultTool[]; changes: ChangeJournal } = null as unknown as VaultTools;
const checkCreate: (vault: VaultAccess, scope: ToolScope, now?: () => number) => VaultTools = createVaultTools;
const checkChange: { id: string; tool: string; path: string; before: string | null; after: string; at: number } = null as unknown as NoteChange;
const checkDecisions: AccessDecision[] = [{ kind: "once" }, { kind: "chat" }, { kind: "always" }, { kind: "deny", reason: "no" }];
const checkRule: { tool: string; grantedAt: string } = null as unknown as AlwaysRule;
const checkAsk: (call: ToolCall, tool: VaultTool, preview: ToolPreview | undefined) => Promise<AccessDecision> = null as unknown as AskFn;
const checkApprove: (call: ToolCall, tool: VaultTool) => Promise<ToolApproval> = null as unknown as Approve;
const checkRulesCtor: new (store: RuleStore, now?: () => Date) => PermissionRules = PermissionRules;
const checkMemoryVault: new (notes: Record<string, string>, opts: { configDir: string; now?: number }) => VaultAccess = MemoryVault;
const checkTags: (text: string) => string[] = tagsOf;
const checkJournal: new (vault: VaultAccess, now?: () => number) => ChangeJournal = ChangeJournal;
const checkToolError: new (message: string) => Error = ToolError;
void [checkSpec, checkCall, checkTool, checkVaultTool, checkPreview, checkPreviewFn, checkApproval, checkRunContext, checkScope, checkNote, checkVault, checkVaultTools];
void [checkCreate, checkChange, checkDecisions, checkRule, checkAsk, checkApprove, checkRulesCtor, checkMemoryVault, checkTags, checkJournal, checkToolError];

const SCOPE: ToolScope = { chatsFolder: () => "Discover/Chats", excludedFolders: () => ["Private"] };

function memoryRules(): RuleStore & { rules: AlwaysRule[] } {
	const store = {
		rules: [] as AlwaysRule[],
		readAllowed: () => true,
		alwaysRules: () => store.rules,
		saveAlwaysRules: (rules: AlwaysRule[]) => {
			store.rules = rules;
			return Promise.resolve();
		},
	};
	return store;
}

describe("the headless contract: tools", () => {
	it("exports the tool builders at run time", () => {
		for (const name of ["createVaultTools", "ChangeJournal", "ToolError", "PermissionRules", "MemoryVault", "tagsOf", "MAX_CALLS_A_ROUND", "TOO_MANY_CALLS", "MAX_TURN_RESULT_BYTES", "TURN_RESULTS_CUT_NOTE", "randomCallId"]) {
			expect(headless, name).toHaveProperty(name);
		}
	});

	it("a chat searches, reads and edits a vault through the public names: a write is asked, previewed, denied with a reason, then allowed and reverted", async () => {
		const vault = new MemoryVault({ "Projects/Plan.md": "# Plan\n\nShip in May.\n", "Private/Diary.md": "Ship secrets.\n", "Discover/Chats/x.md": "ship" }, { configDir: ".obsidian" });
		const { tools, changes } = createVaultTools(vault, SCOPE);
		expect(tools.map((t) => [t.name, t.access])).toEqual([
			["search_notes", "read"],
			["read_note", "read"],
			["list_notes", "read"],
			["get_active_note", "read"],
			["create_note", "write"],
			["edit_note", "write"],
		]);
		const edit: ToolCall = { id: "e1", name: "edit_note", arguments: { path: "Projects/Plan.md", mode: "replace", old_text: "May", new_text: "June" } };
		const script: { text: string; calls?: ToolCall[] }[] = [
			{ text: "", calls: [{ id: "s1", name: "search_notes", arguments: { query: "ship" } }] },
			{ text: "", calls: [{ id: "r1", name: "read_note", arguments: { path: "Projects/Plan.md" } }] },
			{ text: "", calls: [edit] },
			{ text: "", calls: [{ ...edit, id: "e2" }] },
			{ text: "Moved to June." },
		];
		const seen: ToolCall[][] = [];
		const adapter: LLMAdapter = {
			generate(req) {
				const step = req.purpose === "chat" ? script.shift() : undefined;
				if (step?.calls) seen.push(step.calls);
				return Promise.resolve(step?.calls ? { text: step.text, toolCalls: step.calls } : { text: step?.text ?? "Summary." });
			},
		};
		const previews: (ToolPreview | undefined)[] = [];
		const answers: AccessDecision[] = [{ kind: "deny", reason: "not May, June" }, { kind: "once" }];
		const ask: AskFn = (_call, _tool, preview) => {
			previews.push(preview);
			return Promise.resolve(answers.shift() ?? { kind: "deny" });
		};
		const rules = new PermissionRules(memoryRules());
		const chat = new ChatService({ adapter, sessions: new SessionManager(new MemoryFileStore()), tools, approve: rules.approverFor("chat-1", ask) });
		const answer = await chat.sendMessage("Move the plan to June.");

		expect(answer.content).toBe("Moved to June.");
		const results = chat.messages.filter((m) => m.role === "tool").map((m) => m.content);
		expect(results[0]).toContain("Projects/Plan.md");
		expect(results[0]).not.toContain("Private/Diary.md");
		expect(results[0]).not.toContain("Discover/Chats");
		expect(results[1]).toContain("Ship in May.");
		expect(results[2]).toContain("not May, June");
		expect(previews).toHaveLength(2);
		expect(previews[0]?.diff).toContain("-Ship in May.");
		expect(previews[0]?.diff).toContain("+Ship in June.");
		expect(await vault.read("Projects/Plan.md")).toBe("# Plan\n\nShip in June.\n");
		// The journal goes by the engine's id for the call; the server's ("e2") is kept beside it.
		const e2 = chat.messages.flatMap((m) => m.toolCalls ?? []).find((c) => c.serverId === "e2")!.id;
		expect(e2).not.toBe("e2");
		expect(changes.get("e2")).toBeUndefined();
		expect(changes.get(e2)).toMatchObject({ tool: "edit_note", path: "Projects/Plan.md", before: "# Plan\n\nShip in May.\n" });
		await changes.revert(e2);
		expect(await vault.read("Projects/Plan.md")).toBe("# Plan\n\nShip in May.\n");
		expect(seen).toHaveLength(4);
	});

	it("permission rules: always rules are listed with when they were granted and can be revoked", async () => {
		const store = memoryRules();
		const rules = new PermissionRules(store, () => new Date("2026-11-24T12:00:00Z"));
		await rules.grantAlways("edit_note");
		// Granted from code without a scope: a whole-vault rule, shown as such.
		expect(rules.alwaysRules()).toEqual([{ tool: "edit_note", folder: "", grantedAt: "2026-11-24T12:00:00.000Z" }]);
		expect(rules.allowsUnasked("c", { name: "edit_note", access: "write" })).toBe(true);
		await rules.revoke("edit_note");
		expect(rules.allowsUnasked("c", { name: "edit_note", access: "write" })).toBe(false);
		await expect(new ChangeJournal(new MemoryVault({}, { configDir: ".obsidian" })).revert("nope")).rejects.toBeInstanceOf(ToolError);
	});
});
