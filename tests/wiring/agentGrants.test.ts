// The open chat's agent in the permission rules (src/wiring/agentGrants.ts): its writes run
// unasked only while the person approved it and only inside its writeFolders; "Always allow"
// never touches the agent's note (a synced or model-made note cannot gain a grant that way).
import { describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp } from "../obsidian/harness";
import { AgentLibrary } from "../../src/wiring/agentLibrary";
import { agentGrants } from "../../src/wiring/agentGrants";
import { PermissionRules, type AlwaysRule } from "../../src/tools/permissions";
import type { Agent } from "../../src/agents/agent";
import { toolbox } from "../tools/support";
import { approvalsOf } from "../support/agentApprovals";

const NOTE = "Discover/Agents/Writer.md";
const WRITER = "---\nname: Writer\ntools: [edit_note]\n---\nWrite well.\n";

const writer = (over: Partial<Agent> = {}): Agent => ({ path: NOTE, name: "Writer", tools: ["edit_note"], sources: [], instructions: "", writeFolders: ["Drafts"], ...over });

describe("the open chat's agent in the permission rules", () => {
	it("an approved agent writes unasked only in the folders it named, in its own chat", () => {
		const grants = agentGrants(() => ({ chatId: "A", agent: writer(), approved: true }));
		expect(grants.allowsUnasked("A", "edit_note", ["Drafts/x.md"])).toBe(true);
		expect(grants.allowsUnasked("A", "edit_note", ["drafts/Sub/x.md"])).toBe(true);
		expect(grants.allowsUnasked("A", "edit_note", ["Drafts/x.md", "Notes/y.md"])).toBe(false);
		expect(grants.allowsUnasked("A", "edit_note", ["DraftsOld/x.md"])).toBe(false);
		expect(grants.allowsUnasked("A", "create_note", ["Drafts/x.md"])).toBe(false);
		expect(grants.allowsUnasked("B", "edit_note", ["Drafts/x.md"])).toBe(false);
		expect(grants.agentOf("A")).toBe(NOTE);
		expect(grants.agentOf("B")).toBeUndefined();
	});

	it("an agent not approved, one with no folders, or one naming the whole vault asks", () => {
		expect(agentGrants(() => ({ chatId: "A", agent: writer(), approved: false })).allowsUnasked("A", "edit_note", ["Drafts/x.md"])).toBe(false);
		expect(agentGrants(() => ({ chatId: "A", agent: writer({ writeFolders: undefined }), approved: true })).allowsUnasked("A", "edit_note", ["Drafts/x.md"])).toBe(false);
		for (const everywhere of ["", "/", "."]) {
			expect(agentGrants(() => ({ chatId: "A", agent: writer({ writeFolders: [everywhere] }), approved: true })).allowsUnasked("A", "edit_note", ["Notes/x.md"])).toBe(false);
		}
		// The built-in fallback (no note) is no agent.
		expect(agentGrants(() => ({ chatId: "A", agent: writer({ path: "" }), approved: true })).agentOf("A")).toBeUndefined();
	});

	it("Always allow in a chat with an agent leaves the agent's note as it was and saves a scoped rule", async () => {
		const app = await createTestApp({ files: { [NOTE]: WRITER, "Notes/a.md": "x\n" } });
		const library = new AgentLibrary({ app: asObsidianApp(app), settings: { agentsFolder: "Discover/Agents", systemPrompt: "", agentApprovals: approvalsOf({ [NOTE]: WRITER }) } });
		const { agent } = await library.resolve(NOTE);
		const grants = agentGrants(() => ({ chatId: "A", agent, approved: false }));
		let rules: AlwaysRule[] = [];
		const permissions = new PermissionRules({ readAllowed: () => true, alwaysRules: () => rules, saveAlwaysRules: (r) => ((rules = r), Promise.resolve()) }, () => new Date("2026-11-28T10:00:00Z"), grants);
		const asked: string[] = [];
		const approver = permissions.approverFor("A", (c) => (asked.push(c.name), Promise.resolve({ kind: "always", onlyAgent: true })));
		const edit = toolbox({ "Notes/a.md": "x\n" }).tool("edit_note");
		const args = { path: "Notes/a.md", mode: "append", text: "y" };
		expect(await approver({ id: "1", name: "edit_note", arguments: args }, edit)).toBe("allow");
		expect(await approver({ id: "2", name: "edit_note", arguments: args }, edit)).toBe("allow");
		expect(asked).toEqual(["edit_note"]);
		expect(rules).toEqual([{ tool: "edit_note", folder: "Notes", agent: NOTE, grantedAt: "2026-11-28T10:00:00.000Z" }]);
		expect(await app.vault.adapter.read(NOTE)).toBe(WRITER);
	});
});
