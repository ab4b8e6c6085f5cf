// MCP tools under the permission rules: asked every time, whatever the server's annotations say;
// the read setting, folder rules and whole-vault rules never reach them; "Always allow" on an MCP
// card saves a rule for this tool of this server only, which is then the one thing (with "allow for
// this chat") that skips asking; an agent-limited rule holds only in that agent's chats.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolCall } from "../../src/core/types";
import { PermissionRules, type AccessDecision, type AgentGrants, type AlwaysRule, type AskInfo, type RuleStore } from "../../src/tools/permissions";
import type { Tool } from "../../src/tools/types";

function store(rules: AlwaysRule[] = []): RuleStore & { rules: AlwaysRule[] } {
	const s = { rules, readAllowed: () => true, alwaysRules: () => s.rules, saveAlwaysRules: (r: AlwaysRule[]) => ((s.rules = r), Promise.resolve()) };
	return s;
}

function mcpTool(server: string, tool: string, annotations: NonNullable<Tool["mcp"]>["annotations"] = {}): Tool {
	return { name: `${server}__${tool}`, description: "", parameters: { type: "object", properties: {} }, access: "write", mcp: { server, tool, annotations }, run: () => Promise.resolve("ran") };
}

const call = (name: string): ToolCall => ({ id: "c1", name, arguments: { path: "a.md" } });

function asker(...decisions: AccessDecision[]) {
	const asked: AskInfo[] = [];
	const ask = (_c: ToolCall, _t: Tool, _p: unknown, info?: AskInfo): Promise<AccessDecision> => {
		asked.push(info ?? { marks: [] });
		return Promise.resolve(decisions.shift() ?? { kind: "deny" });
	};
	return { ask, asked };
}

const agents = (agent: string | undefined): AgentGrants => ({ allowsUnasked: () => true, agentOf: () => agent });

describe("MCP tools and the permission rules", () => {
	it("asks every time, even for a tool the server calls read-only, and even with reads allowed", async () => {
		const rules = new PermissionRules(store(), undefined, agents("Agents/A.md"));
		const { ask, asked } = asker({ kind: "once" }, { kind: "once" });
		const tool = mcpTool("fs", "read_file", { readOnlyHint: true });
		expect(await rules.approverFor("chat", ask)(call(tool.name), tool)).toBe("allow");
		expect(await rules.approverFor("chat", ask)(call(tool.name), tool)).toBe("allow");
		expect(asked).toHaveLength(2);
		expect(asked[0]?.mcp).toEqual({ server: "fs", tool: "read_file" });
	});

	it("a folder or whole-vault rule for the same name does not reach an MCP tool", async () => {
		const tool = mcpTool("fs", "write_file");
		const rules = new PermissionRules(store([{ tool: tool.name, folder: "", grantedAt: "2026-01-01T00:00:00.000Z" }, { tool: tool.name, folder: "Notes", grantedAt: "2026-01-01T00:00:00.000Z" }]));
		const { ask, asked } = asker({ kind: "deny", reason: "no" });
		expect(await rules.approverFor("chat", ask)(call(tool.name), tool)).toEqual({ deny: "no" });
		expect(asked).toHaveLength(1);
	});

	it("Always allow saves a rule for this tool of this server, which then runs it unasked; other tools of the server still ask", async () => {
		const s = store();
		const rules = new PermissionRules(s, () => new Date("2026-11-29T00:00:00Z"));
		const write = mcpTool("fs", "write_file");
		const move = mcpTool("fs", "move_file");
		const { ask, asked } = asker({ kind: "always" }, { kind: "once" });
		expect(await rules.approverFor("chat", ask)(call(write.name), write)).toBe("allow");
		expect(s.rules).toEqual([{ tool: "fs__write_file", folder: "", mcp: { server: "fs", tool: "write_file" }, grantedAt: "2026-11-29T00:00:00.000Z" }]);
		expect(await rules.approverFor("other chat", ask)(call(write.name), write)).toBe("allow");
		expect(await rules.approverFor("other chat", ask)(call(move.name), move)).toBe("allow");
		expect(asked).toHaveLength(2);
	});

	it("an agent-limited rule holds only in that agent's chats; allow for this chat holds only in that chat", async () => {
		const tool = mcpTool("gh", "create_issue");
		const rule: AlwaysRule = { tool: tool.name, folder: "", agent: "Agents/A.md", mcp: { server: "gh", tool: "create_issue" }, grantedAt: "2026-01-01T00:00:00.000Z" };
		expect(new PermissionRules(store([rule]), undefined, agents("Agents/A.md")).mcpAllowsUnasked("c", tool)).toBe(true);
		expect(new PermissionRules(store([rule]), undefined, agents("Agents/B.md")).mcpAllowsUnasked("c", tool)).toBe(false);
		const rules = new PermissionRules(store());
		await rules.approverFor("c1", asker({ kind: "chat" }).ask)(call(tool.name), tool);
		expect(rules.mcpAllowsUnasked("c1", tool)).toBe(true);
		expect(rules.mcpAllowsUnasked("c2", tool)).toBe(false);
	});

	it("Always allow only for this agent: the rule names the agent; another agent's chat and a chat without one are asked again", async () => {
		const s = store();
		let agent: string | undefined = "Agents/A.md";
		const rules = new PermissionRules(s, () => new Date("2026-11-29T00:00:00Z"), { allowsUnasked: () => true, agentOf: () => agent });
		const tool = mcpTool("gh", "create_issue");
		const { ask, asked } = asker({ kind: "always", onlyAgent: true }, { kind: "once" }, { kind: "once" });
		expect(await rules.approverFor("c1", ask)(call(tool.name), tool)).toBe("allow");
		expect(s.rules).toEqual([{ tool: "gh__create_issue", folder: "", agent: "Agents/A.md", mcp: { server: "gh", tool: "create_issue" }, grantedAt: "2026-11-29T00:00:00.000Z" }]);
		expect(await rules.approverFor("c2", ask)(call(tool.name), tool)).toBe("allow");
		expect(asked).toHaveLength(1);
		agent = "Agents/B.md";
		await rules.approverFor("c3", ask)(call(tool.name), tool);
		agent = undefined;
		await rules.approverFor("c4", ask)(call(tool.name), tool);
		expect(asked).toHaveLength(3);
	});

	it("property: whatever rules stand, an MCP tool runs unasked only by this chat's grant or a rule naming this very server and tool", () => {
		const name = fc.constantFrom("fs", "gh", "fs__write_file", "write_file", "");
		const ruleArb = fc.record({ tool: fc.constantFrom("fs__write_file", "gh__write_file", "write_file"), folder: fc.constantFrom("", "Notes"), agent: fc.option(fc.constantFrom("A.md", "B.md"), { nil: undefined }), mcp: fc.option(fc.record({ server: name, tool: name }), { nil: undefined }), grantedAt: fc.constant("2026-01-01T00:00:00.000Z") });
		fc.assert(
			fc.property(fc.array(ruleArb, { maxLength: 6 }), fc.constantFrom("A.md", "B.md", undefined), fc.record({ readOnlyHint: fc.boolean(), destructiveHint: fc.boolean() }), (rs, agent, annotations) => {
				const clean = rs.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as unknown as AlwaysRule);
				const tool = mcpTool("fs", "write_file", annotations);
				const allowed = new PermissionRules(store(clean), undefined, agents(agent)).mcpAllowsUnasked("chat", tool);
				const expected = clean.some((r) => r.tool === "fs__write_file" && r.mcp?.server === "fs" && r.mcp.tool === "write_file" && (r.agent === undefined || r.agent === agent));
				expect(allowed).toBe(expected);
			}),
			{ numRuns: 300 },
		);
	});
});
