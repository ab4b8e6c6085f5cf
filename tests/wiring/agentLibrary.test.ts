// The agents folder: the default agent is created once when the folder has no agent (never over a
// note of the person's), every note is read (broken ones as problems naming the note and the
// field), a missing or broken agent falls back to the default, "Always allow" lands in the agent
// note's front matter (revocable there), and "New agent" starts from the template.
import { describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp } from "../obsidian/harness";
import { AgentLibrary } from "../../src/wiring/agentLibrary";
import type { Agent, AgentIssue } from "../../src/agents/agent";

const FOLDER = "Discover/Agents";

async function library(files: Record<string, string> = {}) {
	const app = await createTestApp({ files });
	const settings = { agentsFolder: FOLDER, systemPrompt: "You are careful." };
	const agents = new AgentLibrary({ app: asObsidianApp(app), settings });
	return { app, agents, settings };
}

describe("the agents folder", () => {
	it("creates the default agent, with the settings' prompt as its instructions, when the folder has none", async () => {
		const { app, agents } = await library({ "Notes/A.md": "a" });
		const { agents: listed, issues } = await agents.list();
		expect(issues).toEqual([]);
		expect(listed.map((a) => [a.path, a.name, a.instructions])).toEqual([[`${FOLDER}/Default.md`, "Default", "You are careful."]]);
		expect(await app.vault.adapter.read(`${FOLDER}/Default.md`)).toContain("You are careful.");
	});

	it("never creates a default over the person's agents, nor over a note named Default", async () => {
		const mine = "---\nname: Mine\n---\nMy own words.";
		const { app, agents } = await library({ [`${FOLDER}/Writer.md`]: mine });
		await agents.list();
		await agents.resolve(undefined);
		expect(app.vault.getFileByPath(`${FOLDER}/Default.md`)).toBeNull();
		expect(await app.vault.adapter.read(`${FOLDER}/Writer.md`)).toBe(mine);

		const own = "---\nname: Plain\n---\nKeep me.";
		const second = await library({ [`${FOLDER}/Default.md`]: own });
		await second.agents.list();
		expect(await second.app.vault.adapter.read(`${FOLDER}/Default.md`)).toBe(own);
	});

	it("reads every note under the folder; a broken one comes back as its problem, the others as agents", async () => {
		const { agents } = await library({
			[`${FOLDER}/Default.md`]: "Be brief.",
			[`${FOLDER}/Hot.md`]: "---\ntemperature: 5\n---\nx",
			[`${FOLDER}/Team/Reviewer.md`]: "---\nmodel: qwen3:8b\ntools: [read_note]\n---\nReview.",
			[`${FOLDER}/Bad yaml.md`]: "---\ntools: [read_note\n---\nx",
			"Elsewhere/Not an agent.md": "---\nname: Nope\n---\n",
		});
		const { agents: listed, issues } = await agents.list();
		expect(listed.map((a) => a.path)).toEqual([`${FOLDER}/Default.md`, `${FOLDER}/Team/Reviewer.md`]);
		expect(issues).toEqual([
			{ path: `${FOLDER}/Bad yaml.md`, field: "frontmatter" },
			{ path: `${FOLDER}/Hot.md`, field: "temperature", value: "5" },
		]);
	});

	it("a broken or missing agent falls back to the default, saying which note and field", async () => {
		const { agents } = await library({ [`${FOLDER}/Default.md`]: "Be brief.", [`${FOLDER}/Hot.md`]: "---\ntemperature: 5\n---\nx" });
		const broken = await agents.resolve(`${FOLDER}/Hot.md`);
		expect(broken.agent.path).toBe(`${FOLDER}/Default.md`);
		expect(broken.issue).toEqual({ path: `${FOLDER}/Hot.md`, field: "temperature", value: "5" });
		const gone = await agents.resolve(`${FOLDER}/Gone.md`);
		expect(gone).toMatchObject({ agent: { path: `${FOLDER}/Default.md` }, missing: `${FOLDER}/Gone.md` });
	});

	it("a broken default agent falls back to the settings' prompt", async () => {
		const { agents } = await library({ [`${FOLDER}/Default.md`]: "---\nprovider: nobody\n---\nx" });
		const choice = await agents.resolve(undefined);
		expect(choice.agent).toMatchObject({ path: "", instructions: "You are careful." });
		expect(choice.issue).toEqual({ path: `${FOLDER}/Default.md`, field: "provider", value: "nobody" });
	});

	it("a check beyond the note (its model on the server) falls back to the default, and a default failing it too to the built-in agent", async () => {
		const { agents } = await library({ [`${FOLDER}/Default.md`]: "---\nmodel: llama3\n---\nBe brief.", [`${FOLDER}/Writer.md`]: "---\nmodel: ghost\n---\nVerse." });
		const known = new Set(["llama3"]);
		const check = (agent: Agent): Promise<AgentIssue | undefined> => Promise.resolve(agent.model === undefined || known.has(agent.model) ? undefined : { path: agent.path, field: "model", value: agent.model });
		const writer = await agents.resolve(`${FOLDER}/Writer.md`, check);
		expect(writer.agent.path).toBe(`${FOLDER}/Default.md`);
		expect(writer.issue).toEqual({ path: `${FOLDER}/Writer.md`, field: "model", value: "ghost" });
		// Without the check the note itself is fine.
		expect((await agents.resolve(`${FOLDER}/Writer.md`)).agent.path).toBe(`${FOLDER}/Writer.md`);

		known.delete("llama3");
		const both = await agents.resolve(`${FOLDER}/Writer.md`, check);
		expect(both.agent).toMatchObject({ path: "", name: "Default", instructions: "You are careful." });
		expect(both.issue).toEqual({ path: `${FOLDER}/Writer.md`, field: "model", value: "ghost" });
	});

	it("the default agent's name is in the person's language (its file stays Default.md), and so is the built-in one's", async () => {
		const app = await createTestApp({ files: {} });
		const settings = { agentsFolder: FOLDER, systemPrompt: "Sei sorgfältig." };
		const agents = new AgentLibrary({ app: asObsidianApp(app), settings }, { newAgent: () => "Neuer Agent", defaultAgent: () => "Standard" });
		const { agents: listed } = await agents.list();
		expect(listed.map((a) => [a.path, a.name])).toEqual([[`${FOLDER}/Default.md`, "Standard"]]);
		expect(await app.vault.adapter.read(`${FOLDER}/Default.md`)).toMatch(/^---\nname: Standard\n/);

		await app.vault.adapter.write(`${FOLDER}/Default.md`, "---\ntemperature: 9\n---\nx");
		expect((await agents.resolve(undefined)).agent).toMatchObject({ path: "", name: "Standard" });
	});

	it("Always allow adds the tool to the agent note's front matter, keeping its text; revoking removes it", async () => {
		const { app, agents } = await library({ [`${FOLDER}/Writer.md`]: "---\nname: Writer\ntools: [read_note]\n---\nMy instructions.\n" });
		await agents.allowTool(`${FOLDER}/Writer.md`, "edit_note");
		await agents.allowTool(`${FOLDER}/Writer.md`, "edit_note");
		let resolved = await agents.resolve(`${FOLDER}/Writer.md`);
		expect(resolved.agent.tools).toEqual(["read_note", "edit_note"]);
		expect(resolved.agent.instructions).toBe("My instructions.");
		expect(await app.vault.adapter.read(`${FOLDER}/Writer.md`)).toMatch(/^---\nname: Writer\ntools:\n {2}- read_note\n {2}- edit_note\n---\nMy instructions\.\n$/);
		await agents.disallowTool(`${FOLDER}/Writer.md`, "read_note");
		resolved = await agents.resolve(`${FOLDER}/Writer.md`);
		expect(resolved.agent.tools).toEqual(["edit_note"]);
	});

	it("New agent creates a note from the template under a free name", async () => {
		const { app, agents } = await library({ [`${FOLDER}/New agent.md`]: "taken" });
		const path = await agents.create();
		expect(path).toBe(`${FOLDER}/New agent 2.md`);
		expect(await app.vault.adapter.read(`${FOLDER}/New agent.md`)).toBe("taken");
		const made = await agents.resolve(path);
		expect(made.issue).toBeUndefined();
		expect(made.agent).toMatchObject({ name: "New agent 2", temperature: 0.7 });
	});
});
