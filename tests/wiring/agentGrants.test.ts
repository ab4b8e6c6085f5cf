// "Always allow" in a chat with an agent note lands in the note's front matter (visible, revocable
// there) through the agents folder; the open chat's agent's tools are its pre-approved ones.
import { describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp } from "../obsidian/harness";
import { AgentLibrary } from "../../src/wiring/agentLibrary";
import { agentGrants } from "../../src/wiring/agentGrants";
import { PermissionRules, type AlwaysRule } from "../../src/tools/permissions";
import { toolbox } from "../tools/support";
import { approvalsOf } from "../support/agentApprovals";

const NOTE = "Discover/Agents/Writer.md";

describe("the open chat's agent in the permission rules", () => {
	it("Always allow writes the tool into the agent note, and the next call runs unasked", async () => {
		const text = "---\nname: Writer\ntools: []\n---\nWrite well.\n";
		const app = await createTestApp({ files: { [NOTE]: text } });
		const library = new AgentLibrary({ app: asObsidianApp(app), settings: { agentsFolder: "Discover/Agents", systemPrompt: "", agentApprovals: approvalsOf({ [NOTE]: text }) } });
		const { agent } = await library.resolve(NOTE);
		const grants = agentGrants(library, () => ({ chatId: "A", agent }));
		let rules: AlwaysRule[] = [];
		const permissions = new PermissionRules({ readAllowed: () => true, alwaysRules: () => rules, saveAlwaysRules: (r) => ((rules = r), Promise.resolve()) }, () => new Date(), grants);
		const asked: string[] = [];
		const approver = permissions.approverFor("A", (c) => (asked.push(c.name), Promise.resolve({ kind: "always" })));
		const edit = toolbox({ "a.md": "x\n" }).tool("edit_note");
		const args = { path: "a.md", mode: "append", text: "y" };
		expect(await approver({ id: "1", name: "edit_note", arguments: args }, edit)).toBe("allow");
		expect(await approver({ id: "2", name: "edit_note", arguments: args }, edit)).toBe("allow");
		expect(asked).toEqual(["edit_note"]);
		expect(rules).toEqual([]);
		expect(await app.vault.adapter.read(NOTE)).toBe("---\nname: Writer\ntools:\n  - edit_note\n---\nWrite well.\n");
		// The note changed, so the agent is no longer approved as it is: it asks on its review card again.
		expect((await library.resolve(NOTE)).review).toMatchObject({ agent: { tools: ["edit_note"] }, state: "changed", changed: ["tools"] });
		// Another chat (not the open one) is not the agent's.
		expect(grants.allowed("B")).toEqual([]);
	});
});
