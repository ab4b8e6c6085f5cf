// The agents folder: reads each agent note (Obsidian's parseYaml for the front matter, then the
// engine-free agentFromNote check), creates the default agent once when the folder holds none
// (never over a note of the person's), creates new agents from the template, and keeps the
// approvals. Only a note inside the folder (compared by pathFences) is an agent: a path elsewhere
// (a setting, a synced chat file) is refused. An agent is used only as the person approved it
// (agents/agentTrust.ts): the approvals live in the plugin's settings, never in the note, and the
// notes Discover writes itself (the default agent, "New agent") are approved as they are made.
import { normalizePath, parseYaml, TFile, TFolder, type App } from "obsidian";
import { agentFromNote, noteName, splitFrontMatter, type Agent, type AgentIssue, type AgentResult } from "../agents/agent";
import { DEFAULT_AGENT_FILE, defaultAgentNote, newAgentNote } from "../agents/agentTemplates";
import { approvalState, withApproval, type AgentApproval, type AgentApprovalState } from "../agents/agentTrust";
import { isWithinFolder, pathSegments } from "../core/pathFences";
import type { AgentCheck, AgentChoice, AgentsPort } from "../ui/agents/agentsPort";

export interface AgentLibraryHost {
	readonly app: App;
	readonly settings: { readonly agentsFolder: string; readonly systemPrompt: string; agentApprovals?: AgentApproval[] };
	/** Saves the approvals with the settings; absent (tests): they stay in memory. */
	saveSettings?(): Promise<void>;
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

/** The agent a note's text describes, read the way `read` reads a note. */
function parseAgent(path: string, text: string): AgentResult {
	const { yaml, body } = splitFrontMatter(text);
	let frontMatter: unknown;
	if (yaml !== undefined) {
		try {
			frontMatter = parseYaml(yaml);
		} catch {
			return { ok: false, issue: { path, field: "frontmatter" } };
		}
	}
	return agentFromNote(path, frontMatter, body);
}

export class AgentLibrary implements AgentsPort {
	constructor(
		private readonly host: AgentLibraryHost,
		private readonly names: AgentNames = ENGLISH_NAMES,
		private readonly now: () => Date = () => new Date(),
	) {}

	get folder(): string {
		return normalizePath(this.host.settings.agentsFolder);
	}

	get defaultPath(): string {
		return normalizePath(`${this.folder}/${DEFAULT_AGENT_FILE}`);
	}

	/** Whether `path` may be an agent: a Markdown note inside the agents folder (by the fences' comparison), with no `..`. */
	isAgentPath(path: string): boolean {
		if (pathSegments(this.folder).length === 0 || !/\.md$/i.test(path)) return false;
		if (path.split(/[\\/]/).some((segment) => segment.trim() === "..")) return false;
		return isWithinFolder(path, this.folder) && pathSegments(path).length > pathSegments(this.folder).length;
	}

	/** The agent notes under the folder, at any depth, in path order. */
	private notes(): TFile[] {
		return this.host.app.vault
			.getMarkdownFiles()
			.filter((f) => this.isAgentPath(f.path))
			.sort((a, b) => a.path.localeCompare(b.path));
	}

	/** Reads one agent note: a problem in its front matter names the note and the field. */
	async read(file: TFile): Promise<AgentResult> {
		return parseAgent(file.path, await this.host.app.vault.cachedRead(file));
	}

	private get approvals(): readonly AgentApproval[] {
		return this.host.settings.agentApprovals ?? [];
	}

	approval(agent: Agent): AgentApprovalState {
		return approvalState(agent, this.approvals);
	}

	async approve(agent: Agent): Promise<void> {
		if (agent.path === "" || !this.isAgentPath(agent.path)) return;
		this.host.settings.agentApprovals = withApproval(this.approvals, agent, this.now());
		await this.host.saveSettings?.();
	}

	/** Discover wrote `text` at `path` itself: what it wrote is approved (a later change is not). */
	private async approveWritten(path: string, text: string): Promise<void> {
		const written = parseAgent(path, text);
		// A failed save keeps the approval in memory (saved with the next settings change); the note stays made.
		if (written.ok) await this.approve(written.agent).catch(() => undefined);
	}

	/** Creates the default agent when the folder has no agent note; never replaces an existing note. */
	async ensureDefault(): Promise<void> {
		if (this.notes().length > 0) return;
		const vault = this.host.app.vault;
		if (vault.getAbstractFileByPath(this.defaultPath)) return;
		await this.ensureFolder();
		const text = defaultAgentNote(this.host.settings.systemPrompt, this.names.defaultAgent());
		try {
			await vault.create(this.defaultPath, text);
		} catch (err) {
			// Another device (or a sync) may have created it meanwhile: theirs stays, and asks once.
			if (!vault.getAbstractFileByPath(this.defaultPath)) throw err;
			return;
		}
		await this.approveWritten(this.defaultPath, text);
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
		const checked = async (result: AgentResult): Promise<AgentResult> => {
			if (!result.ok || !check) return result;
			const issue = await check(result.agent);
			return issue ? { ok: false, issue } : result;
		};
		const builtIn = (): Agent => builtInAgent(this.host.settings.systemPrompt, this.names.defaultAgent());
		// The default agent stands in only as approved; else the built-in one does (no note, no tools).
		const fallback = async (): Promise<Agent> => {
			const file = this.host.app.vault.getFileByPath(this.defaultPath);
			const read = file ? await this.read(file) : undefined;
			if (!read?.ok || this.approval(read.agent).state !== "approved") return builtIn();
			const result = await checked(read);
			return result.ok ? result.agent : builtIn();
		};
		const asked = path === undefined || path === "" ? undefined : path;
		if (asked !== undefined && !this.isAgentPath(asked)) return { agent: await fallback(), outside: asked };
		const wanted = asked ?? this.defaultPath;
		const isDefault = wanted === this.defaultPath;
		const file = this.host.app.vault.getFileByPath(wanted);
		if (!file) return asked === undefined ? { agent: await fallback() } : { agent: await fallback(), missing: asked };
		const read = await this.read(file);
		if (!read.ok) return { agent: isDefault ? builtIn() : await fallback(), issue: read.issue };
		// Not approved as it is: nothing of it is used (not even its server, for a model list) until the person approves.
		const state = this.approval(read.agent);
		if (state.state !== "approved") return { agent: isDefault ? builtIn() : await fallback(), review: { agent: read.agent, ...state } };
		const result = await checked(read);
		if (result.ok) return { agent: result.agent };
		return { agent: isDefault ? builtIn() : await fallback(), issue: result.issue };
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
		const text = newAgentNote(noteName(path));
		await vault.create(path, text);
		// Made here, from the template, by the person's click: approved as made.
		await this.approveWritten(path, text);
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
