// The agents folder: reads each agent note (Obsidian's parseYaml for the front matter, then the
// engine-free agentFromNote check), creates the default agent once when the folder holds none
// (never over a note of the person's), creates new agents from the template and writes an
// "always allow" into an agent's front matter with processFrontMatter.
import { normalizePath, parseYaml, TFile, TFolder, type App } from "obsidian";
import { agentFromNote, noteName, splitFrontMatter, type Agent, type AgentIssue, type AgentResult } from "../agents/agent";
import { DEFAULT_AGENT_FILE, defaultAgentNote, newAgentNote } from "../agents/agentTemplates";
import type { AgentCheck, AgentChoice, AgentsPort } from "../ui/agents/agentsPort";

export interface AgentLibraryHost {
	readonly app: App;
	readonly settings: { readonly agentsFolder: string; readonly systemPrompt: string };
}

/** The agent chats fall back to when the agents folder has no usable default: the settings' prompt and model. */
export function builtInAgent(systemPrompt: string, name = "Default"): Agent {
	return { path: "", name, tools: [], sources: [], instructions: systemPrompt };
}

/** The names Discover gives the notes it writes, in the person's language (the caller translates). */
export interface AgentNames {
	/** The default agent's `name:` (its file stays Default.md) and the built-in fallback's name. */
	defaultAgent(): string;
	/** A new agent's note name. */
	newAgent(): string;
}

const ENGLISH_NAMES: AgentNames = { defaultAgent: () => "Default", newAgent: () => "New agent" };

export class AgentLibrary implements AgentsPort {
	constructor(
		private readonly host: AgentLibraryHost,
		private readonly names: AgentNames = ENGLISH_NAMES,
	) {}

	private get folder(): string {
		return normalizePath(this.host.settings.agentsFolder);
	}

	get defaultPath(): string {
		return normalizePath(`${this.folder}/${DEFAULT_AGENT_FILE}`);
	}

	/** The agent notes under the folder, at any depth, in path order. */
	private notes(): TFile[] {
		const prefix = `${this.folder}/`;
		return this.host.app.vault
			.getMarkdownFiles()
			.filter((f) => f.path.startsWith(prefix))
			.sort((a, b) => a.path.localeCompare(b.path));
	}

	/** Reads one agent note: a problem in its front matter names the note and the field. */
	async read(file: TFile): Promise<AgentResult> {
		const text = await this.host.app.vault.cachedRead(file);
		const { yaml, body } = splitFrontMatter(text);
		let frontMatter: unknown;
		if (yaml !== undefined) {
			try {
				frontMatter = parseYaml(yaml);
			} catch {
				return { ok: false, issue: { path: file.path, field: "frontmatter" } };
			}
		}
		return agentFromNote(file.path, frontMatter, body);
	}

	/** Creates the default agent when the folder has no agent note; never replaces an existing note. */
	async ensureDefault(): Promise<void> {
		if (this.notes().length > 0) return;
		const vault = this.host.app.vault;
		if (vault.getAbstractFileByPath(this.defaultPath)) return;
		await this.ensureFolder();
		try {
			await vault.create(this.defaultPath, defaultAgentNote(this.host.settings.systemPrompt, this.names.defaultAgent()));
		} catch (err) {
			// Another device (or a sync) may have created it meanwhile: theirs stays.
			if (!vault.getAbstractFileByPath(this.defaultPath)) throw err;
		}
	}

	async list(): Promise<{ agents: Agent[]; issues: AgentIssue[] }> {
		await this.ensureDefault();
		const agents: Agent[] = [];
		const issues: AgentIssue[] = [];
		for (const file of this.notes()) {
			const result = await this.read(file);
			if (result.ok) agents.push(result.agent);
			else issues.push(result.issue);
		}
		return { agents, issues };
	}

	async resolve(path: string | undefined, check?: AgentCheck): Promise<AgentChoice> {
		await this.ensureDefault();
		const readChecked = async (file: TFile): Promise<AgentResult> => {
			const result = await this.read(file);
			if (!result.ok || !check) return result;
			const issue = await check(result.agent);
			return issue ? { ok: false, issue } : result;
		};
		const builtIn = (): Agent => builtInAgent(this.host.settings.systemPrompt, this.names.defaultAgent());
		const fallback = async (): Promise<Agent> => {
			const file = this.host.app.vault.getFileByPath(this.defaultPath);
			const result = file ? await readChecked(file) : undefined;
			return result?.ok ? result.agent : builtIn();
		};
		const wanted = path === undefined || path === "" ? this.defaultPath : path;
		const file = this.host.app.vault.getFileByPath(wanted);
		if (!file) return path === undefined || path === "" ? { agent: await fallback() } : { agent: await fallback(), missing: path };
		const result = await readChecked(file);
		if (result.ok) return { agent: result.agent };
		return { agent: wanted === this.defaultPath ? builtIn() : await fallback(), issue: result.issue };
	}

	async allowTool(path: string, tool: string): Promise<void> {
		await this.editTools(path, (tools) => (tools.includes(tool) ? tools : [...tools, tool]));
	}

	async disallowTool(path: string, tool: string): Promise<void> {
		await this.editTools(path, (tools) => tools.filter((t) => t !== tool));
	}

	private async editTools(path: string, edit: (tools: string[]) => string[]): Promise<void> {
		const file = this.host.app.vault.getFileByPath(path);
		if (!file) throw new Error(`${path} does not exist`);
		await this.host.app.fileManager.processFrontMatter(file, (fm: Record<string, unknown>) => {
			const current = Array.isArray(fm.tools) ? fm.tools.filter((t): t is string => typeof t === "string") : typeof fm.tools === "string" ? [fm.tools] : [];
			fm.tools = edit(current);
		});
	}

	async create(): Promise<string> {
		await this.ensureFolder();
		const vault = this.host.app.vault;
		const base = this.names.newAgent();
		let path = normalizePath(`${this.folder}/${base}.md`);
		for (let n = 2; vault.getAbstractFileByPath(path); n++) path = normalizePath(`${this.folder}/${base} ${n}.md`);
		await vault.create(path, newAgentNote(noteName(path)));
		return path;
	}

	async open(path: string): Promise<void> {
		await this.host.app.workspace.openLinkText(path, "", true);
	}

	private async ensureFolder(): Promise<void> {
		const vault = this.host.app.vault;
		const existing = vault.getAbstractFileByPath(this.folder);
		if (existing instanceof TFolder) return;
		try {
			await vault.createFolder(this.folder);
		} catch (err) {
			if (!(vault.getAbstractFileByPath(this.folder) instanceof TFolder)) throw err;
		}
	}
}
