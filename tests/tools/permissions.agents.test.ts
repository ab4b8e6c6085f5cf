// The chat's agent in the permission rules: the tools it allows run without a permission card
// (in its chat only), and "Always allow" in a chat with an agent goes into the agent, not the
// settings' rules; a chat whose agent cannot take it keeps the settings' rule.
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
	};
	return s;
}

function agents(byChat: Record<string, string[]>, takes = true): AgentGrants & { granted: [string, string][] } {
	const granted: [string, string][] = [];
	return {
		granted,
		allowed: (chatId) => byChat[chatId] ?? [],
		grant: (chatId, tool) => {
			if (!takes) return Promise.resolve(false);
			granted.push([chatId, tool]);
			(byChat[chatId] ??= []).push(tool);
			return Promise.resolve(true);
		},
	};
}

const call = (name: string, args: Record<string, unknown>, id = "c1"): ToolCall => ({ id, name, arguments: args });
const appendArgs = { path: "a.md", mode: "append", text: "beta" };

function asker(...decisions: AccessDecision[]) {
	const asked: string[] = [];
	return {
		asked,
		ask: (c: ToolCall): Promise<AccessDecision> => {
			asked.push(c.name);
			const next = decisions.shift();
			return next ? Promise.resolve(next) : Promise.reject(new Error("no answer"));
		},
	};
}

describe("an agent's tools in the permission rules", () => {
	const { tool } = toolbox({ "a.md": "alpha\n" });
	const edit = tool("edit_note");

	it("a tool the chat's agent allows runs without asking, in that chat only", async () => {
		const rules = new PermissionRules(store(), () => new Date(), agents({ A: ["edit_note"] }));
		const inA = asker();
		expect(await rules.approverFor("A", inA.ask)(call("edit_note", appendArgs), edit)).toBe("allow");
		expect(inA.asked).toEqual([]);
		const inB = asker({ kind: "deny" });
		expect(await rules.approverFor("B", inB.ask)(call("edit_note", appendArgs), edit)).toBe("deny");
		expect(inB.asked).toEqual(["edit_note"]);
	});

	it("Always allow in a chat with an agent goes into the agent, not the settings' rules", async () => {
		const saved = store();
		const grants = agents({});
		const rules = new PermissionRules(saved, () => new Date(), grants);
		const { ask, asked } = asker({ kind: "always" });
		const approver = rules.approverFor("A", ask);
		expect(await approver(call("edit_note", appendArgs), edit)).toBe("allow");
		expect(await approver(call("edit_note", appendArgs, "c2"), edit)).toBe("allow");
		expect(asked).toEqual(["edit_note"]);
		expect(grants.granted).toEqual([["A", "edit_note"]]);
		expect(saved.rules).toEqual([]);
	});

	it("a chat whose agent cannot take the grant keeps it in the settings' rules", async () => {
		const saved = store();
		const rules = new PermissionRules(saved, () => new Date("2026-11-24T10:00:00Z"), agents({}, false));
		expect(await rules.approverFor("A", asker({ kind: "always" }).ask)(call("edit_note", appendArgs), edit)).toBe("allow");
		expect(saved.rules).toEqual([{ tool: "edit_note", grantedAt: "2026-11-24T10:00:00.000Z" }]);
	});
});
