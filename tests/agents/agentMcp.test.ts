// An agent note names its MCP servers (`mcp: [filesystem, github]`). The list is read and checked,
// it is part of what the person approves (an approval saved before the field existed still covers
// an agent that names none), the review card says it, and — the attack — a note changed by sync or
// by a model to name more servers reaches none of them until the person approves it again.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agentFromNote, type Agent } from "../../src/agents/agent";
import { agentFacts, snapshotText } from "../../src/agents/agentFacts";
import { agentDigest, agentMcpServers, agentSnapshot, approvalState, isAgentApproval, snapshotDigest, withApproval, type AgentApproval } from "../../src/agents/agentTrust";
import { sha256Text } from "../../src/core/sha256";
import { reviewLines } from "../../src/ui/agents/AgentReviewCard";
import { agentIssueText } from "../../src/ui/agents/agentIssueText";
import { AgentLibrary } from "../../src/wiring/agentLibrary";
import { asObsidianApp, createTestApp } from "../obsidian/harness";
import { approvalsOf } from "../support/agentApprovals";

const PATH = "Discover/Agents/Researcher.md";
const NOW = new Date("2026-11-29T03:00:00Z");
const parse = (fm: unknown): Agent => {
	const r = agentFromNote(PATH, fm, "Research carefully.");
	if (!r.ok) throw new Error(JSON.stringify(r.issue));
	return r.agent;
};

describe("the mcp field of an agent note", () => {
	it("reads a list, one name, or none; repeats (any case) once; bad entries name the field", () => {
		expect(parse({ mcp: ["filesystem", "github", "GitHub"] }).mcp).toEqual(["filesystem", "github"]);
		expect(parse({ mcp: "filesystem" }).mcp).toEqual(["filesystem"]);
		expect(parse({ mcp: [] }).mcp).toEqual([]);
		expect(parse({}).mcp).toBeUndefined();
		const bad = agentFromNote(PATH, { mcp: ["ok", { url: "https://evil" }] }, "");
		expect(bad).toMatchObject({ ok: false, issue: { field: "mcp", value: '{"url":"https://evil"}' } });
		const notList = agentFromNote(PATH, { mcp: { github: true } }, "");
		expect(notList).toMatchObject({ ok: false, issue: { field: "mcp" } });
		if (!notList.ok) expect(agentIssueText(notList.issue)).toMatch(/`mcp` must be a list/);
		if (!bad.ok) expect(agentIssueText(bad.issue)).toMatch(/`mcp` must name MCP servers/);
	});

	it("an approval saved before the field existed still covers an agent that names no server", () => {
		const agent = parse({ tools: ["read_note"] });
		// The snapshot and digest exactly as the code before `mcp` wrote them.
		const { mcp: _none, ...old } = agentSnapshot(agent);
		const oldCanonical = JSON.stringify((["provider", "baseUrl", "model", "secret", "tools", "writeFolders", "sources", "instructions"] as const).map((f) => [f, old[f]]));
		const saved: AgentApproval = { path: PATH, digest: sha256Text(oldCanonical), fields: old, approvedAt: NOW.toISOString() };
		expect(isAgentApproval(saved)).toBe(true);
		expect(snapshotDigest(old)).toBe(saved.digest);
		expect(approvalState(agent, [saved])).toEqual({ state: "approved" });
		// Naming servers, even none, is a change to approve.
		expect(approvalState({ ...agent, mcp: [] }, [saved])).toMatchObject({ state: "changed", changed: ["mcp"] });
	});

	it("the review card and the diff say which servers", () => {
		const agent = parse({ mcp: ["github", "filesystem"] });
		const keys = { provider: "ollama" as const, baseUrl: "http://localhost:11434", apiKeySecret: "" };
		expect(reviewLines(agentFacts(agent, keys)).join("\n")).toMatch(/MCP servers `github`, `filesystem`; each call asks first/);
		expect(reviewLines(agentFacts(parse({ mcp: [] }), keys)).join("\n")).toMatch(/Uses no MCP server/);
		expect(reviewLines(agentFacts(parse({}), keys)).join("\n")).not.toMatch(/MCP/);
		expect(snapshotText(agentSnapshot(agent))).toContain("mcp: [filesystem, github]");
		expect(snapshotText(agentSnapshot(parse({})))).toContain("mcp: (the servers turned on in settings)");
	});

	it("property: any change to the mcp list of an approved agent asks again, and meanwhile reaches no server", () => {
		const names = fc.uniqueArray(fc.constantFrom("filesystem", "github", "slack", "everything"), { maxLength: 4 });
		fc.assert(
			fc.property(fc.option(names, { nil: undefined }), fc.option(names, { nil: undefined }), (before, after) => {
				const approvedAgent: Agent = { ...parse({}), ...(before !== undefined ? { mcp: before } : {}) };
				const approvals = withApproval([], approvedAgent, NOW);
				const changed: Agent = { ...parse({}), ...(after !== undefined ? { mcp: after } : {}) };
				const same = JSON.stringify(before === undefined ? null : [...before].sort()) === JSON.stringify(after === undefined ? null : [...after].sort());
				const state = approvalState(changed, approvals);
				expect(state.state === "approved").toBe(same);
				const reach = agentMcpServers(changed, state.state === "approved");
				if (same) expect(reach).toEqual(after);
				else expect(reach).toEqual([]);
				expect(agentDigest(changed) === agentDigest(approvedAgent)).toBe(same);
			}),
			{ numRuns: 300 },
		);
	});
});

describe("attack: a synced note adds servers to an approved agent", () => {
	it("the library stops using the agent (the review card asks, naming the change) and the chat reaches only what it could before", async () => {
		const folder = "Discover/Agents";
		const approvedText = "---\nname: Researcher\ntools: [read_note]\nmcp: [filesystem]\n---\nResearch carefully.\n";
		const app = await createTestApp({ files: { [PATH]: approvedText, [`${folder}/Default.md`]: "---\nname: Default\n---\nBe careful.\n" } });
		const settings = { agentsFolder: folder, systemPrompt: "Be careful.", agentApprovals: approvalsOf({ [PATH]: approvedText, [`${folder}/Default.md`]: "---\nname: Default\n---\nBe careful.\n" }) };
		const agents = new AgentLibrary({ app: asObsidianApp(app), settings, saveSettings: () => Promise.resolve() });
		const before = await agents.resolve(PATH);
		expect(before.review).toBeUndefined();
		expect(agentMcpServers(before.agent, agents.approval(before.agent).state === "approved")).toEqual(["filesystem"]);

		// Sync (or a model's edit) rewrites the note: github and slack join the list.
		const file = app.vault.getFileByPath(PATH);
		if (file === null) throw new Error("no note");
		await app.vault.modify(file, approvedText.replace("mcp: [filesystem]", "mcp: [filesystem, github, slack]"));
		const after = await agents.resolve(PATH);
		expect(after.review).toMatchObject({ state: "changed", changed: ["mcp"] });
		// The chat falls back to the default agent, which names no server.
		expect(after.agent.path).toBe(`${folder}/Default.md`);
		const reach = agentMcpServers(after.agent, agents.approval(after.agent).state === "approved");
		expect(reach === undefined || !reach.includes("github")).toBe(true);
		// And the changed agent itself, were it held by a chat, reaches nothing until approved.
		const changed = after.review?.agent;
		if (changed === undefined) throw new Error("no review");
		expect(agentMcpServers(changed, agents.approval(changed).state === "approved")).toEqual([]);
		// Once the person approves the version shown, the new list holds.
		await agents.approve(changed);
		const approved = await agents.resolve(PATH);
		expect(agentMcpServers(approved.agent, agents.approval(approved.agent).state === "approved")).toEqual(["filesystem", "github", "slack"]);
	});
});
