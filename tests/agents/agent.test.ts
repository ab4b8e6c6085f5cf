// An agent note's front matter, checked field by field: a valid note gives its agent, each broken
// field gives a problem naming the note and that field (never a half-read agent).
import { describe, expect, it } from "vitest";
import { AGENT_TOOLS, agentFromNote, splitFrontMatter, type AgentResult } from "../../src/agents/agent";
import { defaultAgentNote, newAgentNote } from "../../src/agents/agentTemplates";
import { CATALOGUES } from "../../src/i18n/catalogues";
import { en } from "../../src/i18n/en";
import { parseYaml } from "../obsidian/yaml";
import { toolbox } from "../tools/support";
import { agentIssueText } from "../../src/ui/agents/agentIssueText";

const PATH = "Discover/Agents/Writer.md";

/** What the wiring does: split, parse the YAML, check. */
function read(text: string, path = PATH): AgentResult {
	const { yaml, body } = splitFrontMatter(text);
	return agentFromNote(path, yaml === undefined ? undefined : parseYaml(yaml), body);
}

const issueOf = (result: AgentResult) => (result.ok ? undefined : result.issue);

describe("agent notes", () => {
	it("a complete note gives every option, its body as the instructions", () => {
		const result = read(
			[
				"---",
				"name: Writer",
				"provider: anthropic",
				"model: claude-sonnet-4",
				"temperature: 0.3",
				"tools: [read_note, create_note]",
				"sources:",
				'  - "[[Style guide]]"',
				"  - Projects/",
				"  - Notes/Plan.md",
				"---",
				"You write in plain English.",
				"",
				"Short sentences.",
			].join("\n"),
		);
		expect(result).toEqual({
			ok: true,
			agent: {
				path: PATH,
				name: "Writer",
				provider: "anthropic",
				model: "claude-sonnet-4",
				temperature: 0.3,
				tools: ["read_note", "create_note"],
				sources: [
					{ type: "note", link: "Style guide" },
					{ type: "folder", path: "Projects" },
					{ type: "note", link: "Notes/Plan.md" },
				],
				instructions: "You write in plain English.\n\nShort sentences.",
			},
		});
	});

	it("a note without front matter is an agent named after the note, with defaults", () => {
		expect(read("Answer briefly.")).toEqual({ ok: true, agent: { path: PATH, name: "Writer", tools: [], sources: [], instructions: "Answer briefly." } });
	});

	it("an unquoted [[link]] (a list in a list to YAML) is read as the link it was meant to be", () => {
		const result = read("---\nsources: [[Style guide]]\n---\nx");
		expect(result.ok && result.agent.sources).toEqual([{ type: "note", link: "Style guide" }]);
	});

	it("empty options (`model:` with nothing after it) keep their defaults", () => {
		const result = read("---\nmodel:\nprovider:\ntemperature:\ntools:\n---\nx");
		expect(result.ok && result.agent).toMatchObject({ tools: [], sources: [] });
		expect(result.ok && result.agent.model).toBeUndefined();
	});

	it.each([
		["temperature: 3", "temperature", "3"],
		["temperature: -0.1", "temperature", "-0.1"],
		["temperature: warm", "temperature", "warm"],
		["provider: mistral", "provider", "mistral"],
		["provider: 3", "provider", "3"],
		["model: 42", "model", undefined],
		["model: [a, b]", "model", undefined],
		["name: [a]", "name", undefined],
		['name: ""', "name", undefined],
		["tools: [read_note, delete_vault]", "tools", "delete_vault"],
		["tools: 5", "tools", undefined],
		["sources: [../outside.md]", "sources", "../outside.md"],
		["sources: 7", "sources", undefined],
		['sources: ["/"]', "sources", "/"],
		['sources: ["./"]', "sources", "./"],
		['sources: ["Projects/../"]', "sources", "Projects/../"],
		["baseUrl: localhost:11434", "baseUrl", "localhost:11434"],
		["baseUrl: ftp://example.com", "baseUrl", "ftp://example.com"],
		["baseUrl: https://me:pw@example.com/v1", "baseUrl", "https://me:pw@example.com/v1"],
		["baseUrl: 8080", "baseUrl", "8080"],
		["secret: My Key", "secret", "My Key"],
		["secret: [a]", "secret", '["a"]'],
		["writeFolders: [../Elsewhere]", "writeFolders", "../Elsewhere"],
		['writeFolders: ["/"]', "writeFolders", "/"],
		["writeFolders: [Projects/../..]", "writeFolders", "Projects/../.."],
		["writeFolders: 3", "writeFolders", undefined],
	])("`%s` is refused, naming the note and the field", (line, field, value) => {
		const issue = issueOf(read(`---\n${line}\n---\nbody`));
		expect(issue).toEqual({ path: PATH, field, ...(value === undefined ? {} : { value }) });
	});

	it("the server, key and write folders: an http(s) address, a secret's name, folders inside the vault", () => {
		const result = read("---\nprovider: openai\nbaseUrl: https://api.example.com/v1\nsecret: example-key\ntools: [read_note, edit_note]\nwriteFolders: [Projects/, Notes/Daily]\n---\nx");
		expect(result.ok && result.agent).toMatchObject({ provider: "openai", baseUrl: "https://api.example.com/v1", secret: "example-key", writeFolders: ["Projects", "Notes/Daily"] });
		const plain = read("---\nname: Plain\n---\nx");
		expect(plain.ok && plain.agent.writeFolders).toBeUndefined();
	});

	it("a folder source naming the whole vault says why it is refused", () => {
		const issue = issueOf(read('---\nsources: ["/"]\n---\nx'));
		expect(issue && agentIssueText(issue)).toBe(`${PATH}: \`sources\` can't name the whole vault (“/”): every note would go with each message, excluded ones too. Name the folders instead.`);
	});

	it("front matter that is not a mapping is refused as a whole", () => {
		expect(issueOf(agentFromNote(PATH, ["a", "b"], "x"))).toEqual({ path: PATH, field: "frontmatter" });
		expect(issueOf(agentFromNote(PATH, "text", "x"))).toEqual({ path: PATH, field: "frontmatter" });
	});

	it("the tools an agent may name are exactly the six vault tools", () => {
		const names = toolbox({}).tools.map((t) => t.name);
		expect([...AGENT_TOOLS].sort()).toEqual(names.sort());
	});

	it("the notes Discover writes read back as valid agents", () => {
		const made = read(newAgentNote("Reviewer"), "Discover/Agents/Reviewer.md");
		expect(made.ok && made.agent).toMatchObject({ name: "Reviewer", temperature: 0.7, tools: [], sources: [] });
		const fallback = read(defaultAgentNote("Be kind."), "Discover/Agents/Default.md");
		expect(fallback.ok && fallback.agent).toMatchObject({ name: "Default", instructions: "Be kind.", tools: [] });
	});

	it("the default agent's name reads back as written, in every language and whatever YAML would make of it", () => {
		const names = [...Object.values(CATALOGUES).map((c) => c["agents.defaultName"] ?? en["agents.defaultName"]), "yes", "null", "12", "a: b", "# note", " padded ", "It's \"mine\""];
		for (const name of names) {
			const made = read(defaultAgentNote("Be kind.", name), "Discover/Agents/Default.md");
			expect(made.ok && made.agent.name, name).toBe(name.trim());
		}
	});

	it("splits front matter only at the note's start, BOM or CRLF included", () => {
		expect(splitFrontMatter("\uFEFF---\r\nname: A\r\n---\r\nBody")).toEqual({ yaml: "name: A", body: "Body" });
		expect(splitFrontMatter("Text\n---\nname: A\n---\n")).toEqual({ yaml: undefined, body: "Text\n---\nname: A\n---\n" });
	});
});
