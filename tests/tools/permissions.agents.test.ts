// The chat's agent in the permission rules: what the agent grants (AgentGrants.allowsUnasked, asked
// with the call's real targets) runs without a card in its chat only; "Always allow" in a chat with
// an agent is a scoped rule in the settings (optionally limited to the agent), never a change to
// the agent; a fenced target or a marked write is asked whatever the agent says.
import { describe, expect, it } from "vitest";
import type { ToolCall } from "../../src/core/types";
import { PermissionRules, type AccessDecision, type AgentGrants, type AlwaysRule, type RuleStore } from "../../src/tools/permissions";
import { toolbox } from "./support";

function store(): RuleStore & { rules: AlwaysRule[] } {
	const s = {
		rules: [] as AlwaysRule[],
		readAllowed: () => true,
		alwaysRules: () => s.rules,
		saveAlwaysRules: (rules: AlwaysRule[]) => {
			s.rules = rules;
			return Promise.resolve();
		},
		fences: () => ({ configDir: ".obsidian", chatsFolder: "Discover/Chats", agentsFolder: "Discover/Agents", excluded: ["Private"] }),
	};
	return s;
}

/** Chat A's agent lets edit_note run unasked in Notes/; it records what it was asked. */
function agents(): AgentGrants & { asked: [string, string, readonly string[]][] } {
	const asked: [string, string, readonly string[]][] = [];
	return {
		asked,
		allowsUnasked: (chatId, tool, paths) => {
			asked.push([chatId, tool, paths]);
			return chatId === "A" && tool === "edit_note" && paths.every((p) => p.startsWith("Notes/"));
		},
		agentOf: (chatId) => (chatId === "A" ? "Discover/Agents/Writer.md" : undefined),
	};
}

const call = (name: string, args: Record<string, unknown>, id = "c1"): ToolCall => ({ id, name, arguments: args });
const appendArgs = (path: string, text = "beta"): Record<string, unknown> => ({ path, mode: "append", text });

function asker(...decisions: AccessDecision[]) {
	const asked: string[] = [];
	return {
		asked,
		ask: (c: ToolCall): Promise<AccessDecision> => {
			asked.push(String(c.arguments.path));
			const next = decisions.shift();
			return next ? Promise.resolve(next) : Promise.reject(new Error("no answer"));
		},
	};
}

describe("an agent's tools in the permission rules", () => {
	const notes = { "Notes/a.md": "alpha\n", "Projects/p.md": "plan\n", "Discover/Agents/Writer.md": "---\nname: Writer\n---\n" };

	it("what the chat's agent grants runs without asking, in that chat only, asked with the call's real targets", async () => {
		const edit = toolbox(notes).tool("edit_note");
		const grants = agents();
		const rules = new PermissionRules(store(), () => new Date(), grants);
		const inA = asker();
		expect(await rules.approverFor("A", inA.ask)(call("edit_note", appendArgs("Notes/a.md")), edit)).toBe("allow");
		expect(inA.asked).toEqual([]);
		expect(grants.asked).toContainEqual(["A", "edit_note", ["Notes/a.md"]]);
		const inB = asker({ kind: "deny" });
		expect(await rules.approverFor("B", inB.ask)(call("edit_note", appendArgs("Notes/a.md")), edit)).toBe("deny");
		expect(inB.asked).toEqual(["Notes/a.md"]);
	});

	it("outside the agent's folders, in a fenced place, or with text another plugin runs, the agent's write is asked", async () => {
		const edit = toolbox(notes).tool("edit_note");
		const grants = agents();
		const rules = new PermissionRules(store(), () => new Date(), grants);
		const { ask, asked } = asker({ kind: "deny" }, { kind: "deny" }, { kind: "deny" });
		const approve = rules.approverFor("A", ask);
		expect(await approve(call("edit_note", appendArgs("Projects/p.md")), edit)).toBe("deny");
		expect(await approve(call("edit_note", appendArgs("Discover/Agents/Writer.md")), edit)).toMatchObject({ deny: expect.stringMatching(/agents folder/) as unknown });
		expect(await approve(call("edit_note", appendArgs("Notes/a.md", "<% tp.file.title %>")), edit)).toBe("deny");
		// The agents folder is refused by the tools' own fence before any card.
		expect(asked).toEqual(["Projects/p.md", "Notes/a.md"]);
		// The fenced target never reached the agent's answer.
		expect(grants.asked.some(([, , paths]) => paths.includes("Discover/Agents/Writer.md"))).toBe(false);
	});

	it("Always allow in a chat with an agent is a scoped rule in the settings, limited to the agent when chosen", async () => {
		const saved = store();
		const edit = toolbox(notes).tool("edit_note");
		const rules = new PermissionRules(saved, () => new Date("2026-11-24T10:00:00Z"), agents());
		const { ask } = asker({ kind: "always", onlyAgent: true }, { kind: "always" });
		expect(await rules.approverFor("A", ask)(call("edit_note", appendArgs("Projects/p.md")), edit)).toBe("allow");
		expect(saved.rules).toEqual([{ tool: "edit_note", folder: "Projects", agent: "Discover/Agents/Writer.md", grantedAt: "2026-11-24T10:00:00.000Z" }]);
		// In a chat without an agent, "only for this agent" has nothing to limit to: a plain folder rule.
		expect(await rules.approverFor("B", ask)(call("edit_note", appendArgs("Projects/p.md")), edit)).toBe("allow");
		expect(saved.rules[1]).toEqual({ tool: "edit_note", folder: "Projects", grantedAt: "2026-11-24T10:00:00.000Z" });
	});
});
