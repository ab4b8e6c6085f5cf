// The agents folder: the default agent is created once when the folder has no agent (never over a
// note of the person's) and approved as made, every note is read (broken ones as problems naming the
// note and the field), a missing, broken or unapproved agent falls back to the default (the built-in
// one when the default is not approved either), a path outside the folder is no agent, "Always
// allow" lands in the agent note's front matter (revocable there), and "New agent" starts from the
// template, approved as made.
import { describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp } from "../obsidian/harness";
import { AgentLibrary } from "../../src/wiring/agentLibrary";
import type { Agent, AgentIssue } from "../../src/agents/agent";
import { agentDigest, type AgentApproval } from "../../src/agents/agentTrust";
import { approvalsOf } from "../support/agentApprovals";

const FOLDER = "Discover/Agents";

/** `approved`: the notes among `files` the person approved before (their text as it is). */
async function library(files: Record<string, string> = {}, approved: string[] = []) {
	const app = await createTestApp({ files });
	const settings: { agentsFolder: string; systemPrompt: string; agentApprovals: AgentApproval[] } = {
		agentsFolder: FOLDER,
		systemPrompt: "You are careful.",
		agentApprovals: approvalsOf(Object.fromEntries(approved.map((path) => [path, files[path] ?? ""]))),
	};
	let saves = 0;
	const agents = new AgentLibrary({ app: asObsidianApp(app), settings, saveSettings: () => (saves++, Promise.resolve()) });
	return { app, agents, settings, saves: () => saves };
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
		const { agents } = await library({ [`${FOLDER}/Default.md`]: "Be brief.", [`${FOLDER}/Hot.md`]: "---\ntemperature: 5\n---\nx" }, [`${FOLDER}/Default.md`]);
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
		const { agents } = await library({ [`${FOLDER}/Default.md`]: "---\nmodel: llama3\n---\nBe brief.", [`${FOLDER}/Writer.md`]: "---\nmodel: ghost\n---\nVerse." }, [`${FOLDER}/Default.md`, `${FOLDER}/Writer.md`]);
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
		const { app, agents } = await library({ [`${FOLDER}/Writer.md`]: "---\nname: Writer\ntools: [read_note]\n---\nMy instructions.\n" }, [`${FOLDER}/Writer.md`]);
		await agents.allowTool(`${FOLDER}/Writer.md`, "edit_note");
		await agents.allowTool(`${FOLDER}/Writer.md`, "edit_note");
		// The note changed: it asks on its review card again (no note change approves itself).
		let resolved = await agents.resolve(`${FOLDER}/Writer.md`);
		expect(resolved.review?.agent.tools).toEqual(["read_note", "edit_note"]);
		expect(resolved.review?.agent.instructions).toBe("My instructions.");
		expect(await app.vault.adapter.read(`${FOLDER}/Writer.md`)).toMatch(/^---\nname: Writer\ntools:\n {2}- read_note\n {2}- edit_note\n---\nMy instructions\.\n$/);
		await agents.disallowTool(`${FOLDER}/Writer.md`, "read_note");
		resolved = await agents.resolve(`${FOLDER}/Writer.md`);
		expect(resolved.review?.agent.tools).toEqual(["edit_note"]);
	});

	it("New agent creates a note from the template under a free name", async () => {
		const { app, agents } = await library({ [`${FOLDER}/New agent.md`]: "taken" });
		const path = await agents.create();
		expect(path).toBe(`${FOLDER}/New agent 2.md`);
		expect(await app.vault.adapter.read(`${FOLDER}/New agent.md`)).toBe("taken");
		const made = await agents.resolve(path);
		expect(made.issue).toBeUndefined();
		expect(made.review).toBeUndefined();
		expect(made.agent).toMatchObject({ name: "New agent 2", temperature: 0.7 });
	});

	it("the default agent it creates, and a new agent, are approved as made; an edit afterwards is not", async () => {
		const { app, agents, settings, saves } = await library({ "Notes/A.md": "a" });
		const first = await agents.resolve(undefined);
		expect(first).toEqual({ agent: expect.objectContaining({ path: `${FOLDER}/Default.md`, instructions: "You are careful." }) as unknown });
		expect(settings.agentApprovals.map((a) => a.path)).toEqual([`${FOLDER}/Default.md`]);
		const path = await agents.create();
		expect(settings.agentApprovals.map((a) => a.path)).toEqual([`${FOLDER}/Default.md`, path]);
		expect(saves()).toBe(2);
		// A sync (or a model) edits the new agent: it is no longer approved as it is.
		await app.vault.adapter.write(path, "---\nprovider: openai\n---\nObey the notes.");
		const changed = await agents.resolve(path);
		expect(changed.agent.path).toBe(`${FOLDER}/Default.md`);
		expect(changed.review).toMatchObject({ agent: { path, provider: "openai" }, state: "changed", changed: ["provider", "instructions"] });
	});

	it("agents already in the folder are not approved by an upgrade: each asks once, and the default stands in only as approved", async () => {
		const files = { [`${FOLDER}/Default.md`]: "---\nname: Default\n---\nOld default.", [`${FOLDER}/Writer.md`]: "---\nname: Writer\n---\nVerse." };
		const { agents, settings } = await library(files);
		const writer = await agents.resolve(`${FOLDER}/Writer.md`);
		// Neither is approved: the built-in agent (the settings' prompt, no tools, no sources) answers.
		expect(writer.agent).toMatchObject({ path: "", instructions: "You are careful.", tools: [], sources: [] });
		expect(writer.review).toMatchObject({ agent: { path: `${FOLDER}/Writer.md` }, state: "new" });
		const byDefault = await agents.resolve(undefined);
		expect(byDefault.agent.path).toBe("");
		expect(byDefault.review).toMatchObject({ agent: { path: `${FOLDER}/Default.md` }, state: "new" });
		// The person approves the default on its card: from then on it is the fallback.
		await agents.approve(byDefault.review!.agent);
		expect(settings.agentApprovals).toEqual([expect.objectContaining({ path: `${FOLDER}/Default.md`, digest: agentDigest(byDefault.review!.agent) })]);
		expect((await agents.resolve(`${FOLDER}/Writer.md`)).agent.path).toBe(`${FOLDER}/Default.md`);
		expect(agents.approval(writer.review!.agent)).toEqual({ state: "new" });
	});

	it("approving covers exactly the version shown: a note changed after the card was shown is not approved", async () => {
		const { app, agents } = await library({ [`${FOLDER}/Writer.md`]: "---\nname: Writer\n---\nVerse." });
		const shown = (await agents.resolve(`${FOLDER}/Writer.md`)).review!.agent;
		await app.vault.adapter.write(`${FOLDER}/Writer.md`, "---\nname: Writer\nwriteFolders: [Projects]\ntools: [edit_note]\n---\nVerse.");
		await agents.approve(shown);
		const now = await agents.resolve(`${FOLDER}/Writer.md`);
		expect(now.review).toMatchObject({ state: "changed", changed: ["tools", "writeFolders"] });
	});

	it("a path outside the agents folder is no agent: nothing of it is read, and the default answers", async () => {
		const files = { [`${FOLDER}/Default.md`]: "Be brief.", "Clippings/Tips.md": "---\nprovider: openai\n---\nObey.", [`${FOLDER}/Real.md`]: "Real." };
		const { agents } = await library(files, [`${FOLDER}/Default.md`]);
		for (const outside of ["Clippings/Tips.md", `${FOLDER}/../Clippings/Tips.md`, "Discover/Agents.md", "Discover/AgentsX/Tips.md", FOLDER, `${FOLDER}/Real.txt`]) {
			const choice = await agents.resolve(outside);
			expect(choice).toEqual({ agent: expect.objectContaining({ path: `${FOLDER}/Default.md` }) as unknown, outside });
		}
		expect(agents.isAgentPath(`${FOLDER}/Real.md`)).toBe(true);
		// The fences' comparison: the folder in another case is the folder.
		expect(agents.isAgentPath("discover/AGENTS/Team/Real.md")).toBe(true);
		expect(agents.isAgentPath(`${FOLDER}/Team/Real.md`)).toBe(true);
	});
});
