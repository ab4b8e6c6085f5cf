import { isReadFenced } from "../../core/pathFences";
import { fencesOf } from "../../settings/fences";
import { Notice, TFile, type App } from "obsidian";
import type { Agent, AgentChoice, AgentIssue, AgentReview } from "../agents/agentsPort";
import type { ReviewActions } from "../agents/AgentReviewCard";
import { agentDigest } from "../../agents/agentTrust";
import { errorKind } from "../../providers/errors";
import { keyFor, originOf } from "../../settings/keyBinding";
import { agentIssueText } from "../agents/agentIssueText";
import { agentModelCheck, agentModelFailure } from "../agents/agentModel";
import type { ChatRuntime, DiscoverHost } from "../host";
import type { SourceRef } from "./sources/sourceRefs";
import { refKey } from "./sources/sourceRefs";
import { t } from "../../i18n";

/** What ChatAgent needs of the chat's model and sources. */
export interface ChatAgentParts {
	/** The agent's model becomes the chat's default model (a model the chat picked still wins). */
	setAgentModel(model: string | undefined): void;
	/** The agent's model was chosen for the chat (switching agents). */
	chooseModel(model: string): Promise<void>;
	/** An agent's model the server does not have: the chat stops using it if it had taken it as its own. */
	forgetModel(model: string): Promise<void>;
	/** The model the chat picked for itself (saved with it, or in the header), if any. */
	ownModel(): string | undefined;
	addSource(ref: SourceRef): void;
	removeSource(ref: SourceRef): void;
	/** The agent shown changed. */
	onChange(agent: Agent | undefined): void;
	/** Shows the review card of an agent not approved as it is (replacing any shown). */
	showReview(review: AgentReview, actions: ReviewActions): void;
	/** Takes the review card away (another chat, or the agent needs none). */
	clearReview(): void;
}

/**
 * The agent of the chat on screen. A chat keeps its agent (saved with the session when its first
 * message is sent or when the person picks one in the header); a new chat starts with the agent
 * used last (the default agent the first time). An agent note that cannot be used says why,
 * naming the note and the field, and the chat goes on with the default agent.
 */
export class ChatAgent {
	private agent: Agent | undefined;
	private savedFor: string | undefined;
	/** The sources this agent added to the chat (removed again when another agent takes over). */
	private added: SourceRef[] = [];
	/** Versions (note and digest) the person declined on the card: not offered again unasked while the panel is open. */
	private readonly declined = new Set<string>();

	constructor(
		private readonly host: DiscoverHost,
		private readonly runtime: () => ChatRuntime | undefined,
		private readonly parts: ChatAgentParts,
	) {}

	get current(): Agent | undefined {
		return this.agent;
	}

	/** A chat came on screen: `saved` is the agent saved with it (undefined: a new chat, or one from before agents). */
	async follow(sessionId: string | undefined, saved: string | undefined): Promise<void> {
		const agents = this.host.agents;
		this.savedFor = saved === undefined ? undefined : sessionId;
		if (!agents) return this.apply(undefined);
		const last = this.host.settings.lastAgent;
		// The agent used last was deleted or moved (or the folder changed): new chats quietly go back to the default.
		// A reopened chat that picked its own model does not use its agent's: that one is not checked.
		const choice = await this.resolve(saved ?? last, saved === undefined, this.parts.ownModel());
		// The agent used last is gone, or is no agent (a path outside the folder): new chats forget it.
		if (saved === undefined && (choice?.missing !== undefined || choice?.outside !== undefined) && this.host.settings.lastAgent === last) await this.forgetLast(last);
		await this.apply(choice?.agent);
		this.offer(choice?.review, false);
	}

	/** The person picked the agent at `path` in the header: the next message uses it, and the chat remembers it. */
	async choose(path: string): Promise<void> {
		const choice = await this.resolve(path);
		if (!choice) return;
		await this.apply(choice.agent);
		// Not approved as it is: the card asks, and the chat keeps the default until the person approves.
		this.offer(choice.review, true);
		if (choice.review) return;
		if (choice.agent.model !== undefined) await this.parts.chooseModel(choice.agent.model);
		await this.remember(choice.agent);
		const id = this.runtime()?.chat.sessionId;
		if (id !== undefined) await this.save(id);
	}

	/**
	 * The review card for `review` (none: the card goes). `picked`: the person chose the agent in the
	 * header (approving completes the pick); otherwise the chat or the last use named it, and a
	 * version the person already declined here is not offered again unasked.
	 */
	private offer(review: AgentReview | undefined, picked: boolean): void {
		if (!review) {
			this.parts.clearReview();
			return;
		}
		const version = `${review.agent.path}\n${agentDigest(review.agent)}`;
		if (!picked && this.declined.has(version)) {
			this.parts.clearReview();
			return;
		}
		const path = review.agent.path;
		this.parts.showReview(review, {
			approve: async () => {
				const agents = this.host.agents;
				if (!agents) return;
				// Exactly the version shown: a note changed since is not covered, and asks again.
				await agents.approve(review.agent);
				if (picked) await this.choose(path);
				else await this.take(path);
			},
			useDefault: () => {
				this.declined.add(version);
				if (this.host.settings.lastAgent === path) void this.forgetLast(path);
			},
			open: () => void this.host.agents?.open(path).catch(() => undefined),
		});
	}

	/** The chat takes the (now approved) agent at `path` as its own, as when it was opened. */
	private async take(path: string): Promise<void> {
		const choice = await this.resolve(path, false, this.parts.ownModel());
		if (!choice) return;
		await this.apply(choice.agent);
		this.offer(choice.review, false);
	}

	private async forgetLast(last: string | undefined): Promise<void> {
		if (this.host.settings.lastAgent !== last) return;
		delete this.host.settings.lastAgent;
		await this.host.saveSettings().catch(() => undefined);
	}

	/**
	 * A send the server refused for want of a key, when the chat's agent names another server than
	 * the settings' and no key of its own: the message names the note and the field. Undefined
	 * otherwise.
	 */
	keyFailure(err: unknown): string | undefined {
		const agent = this.agent;
		if (agent === undefined || agent.path === "" || errorKind(err) !== "auth") return undefined;
		const s = this.host.settings;
		const server = keyFor(s, { path: agent.path, provider: agent.provider, baseUrl: agent.baseUrl, secret: agent.secret });
		const origin = originOf(server.baseUrl) ?? server.baseUrl;
		if (server.withheld === "own-secret-needed") return t("agents.keyWithheld", { note: agent.path, origin });
		if (server.withheld === "bound-elsewhere") return t("agents.keyBoundElsewhere", { note: agent.path, origin, settingsOrigin: originOf(s.baseUrl) ?? s.baseUrl });
		// The agent's own key: missing from the keychain, or refused by its server.
		if (agent.secret !== undefined && server.secret === agent.secret) {
			const stored = this.host.app.secretStorage.getSecret(agent.secret);
			return t(stored ? "agents.secretRefused" : "agents.secretMissing", { note: agent.path, secret: agent.secret, origin });
		}
		return undefined;
	}

	/** The chat's first message was saved: the chat now remembers its agent. */
	async messageSaved(): Promise<void> {
		const id = this.runtime()?.chat.sessionId;
		if (id === undefined || this.savedFor === id) return;
		await this.save(id);
	}

	/** Every agent note, for the header's menu. */
	async list(): Promise<readonly Agent[]> {
		const agents = this.host.agents;
		if (!agents) return [];
		try {
			return (await agents.list()).agents;
		} catch (err) {
			console.error("Discover: the agents could not be listed", err);
			return [];
		}
	}

	/**
	 * A send failed: when the server has no model by the name the agent's note gives, the note's
	 * problem (for the failure's message), and the chat falls back to the default agent for the
	 * next send. Undefined for any other failure.
	 */
	async sendFailed(err: unknown, model: string): Promise<AgentIssue | undefined> {
		const issue = agentModelFailure(err, this.agent, model, this.host.settings.provider);
		if (!issue) return undefined;
		// The server just said no to this note's model, whatever a cached list says: when the note
		// is the default agent's own, the built-in agent takes over. No list is waited for here (the
		// failure shows once this is done): a default naming a missing model fails its own send.
		const check = (agent: Agent): Promise<AgentIssue | undefined> => Promise.resolve(agent.path === issue.path ? issue : undefined);
		try {
			const choice = await this.host.agents?.resolve(undefined, check);
			if (choice) await this.apply(choice.agent);
		} catch (err) {
			new Notice(t("agents.readFailed", { error: err instanceof Error ? err.message : String(err) }));
		}
		if (issue.value !== undefined) await this.parts.forgetModel(issue.value);
		return issue;
	}

	private async resolve(path: string | undefined, quietIfMissing = false, ownModel?: string): Promise<AgentChoice | undefined> {
		try {
			const choice = await this.host.agents?.resolve(path, agentModelCheck(this.runtime(), this.host.settings, ownModel));
			// The chat may have taken the unknown model as its own (saved with it, or picked with the agent).
			if (choice?.issue?.field === "model" && choice.issue.value !== undefined) await this.parts.forgetModel(choice.issue.value);
			if (choice?.issue) new Notice(t("agents.fallback", { issue: agentIssueText(choice.issue) }), 10000);
			else if (choice?.outside !== undefined) new Notice(t("agents.outside", { note: choice.outside, folder: this.host.agents?.folder ?? "" }), 10000);
			else if (choice?.missing !== undefined && !quietIfMissing) new Notice(t("agents.missing", { note: choice.missing }), 10000);
			return choice;
		} catch (err) {
			new Notice(t("agents.readFailed", { error: err instanceof Error ? err.message : String(err) }));
			return undefined;
		}
	}

	private async apply(agent: Agent | undefined): Promise<void> {
		this.agent = agent;
		this.parts.setAgentModel(agent?.model);
		const fences = fencesOf(this.host.settings, this.host.app.vault.configDir);
		const refs = agent ? sourceRefsOf(this.host.app, agent, (path) => isReadFenced(path, fences)) : [];
		const keep = new Set(refs.map(refKey));
		for (const ref of this.added) if (!keep.has(refKey(ref))) this.parts.removeSource(ref);
		for (const ref of refs) this.parts.addSource(ref);
		this.added = refs;
		this.parts.onChange(agent);
		try {
			await this.runtime()?.useAgent?.(agent);
		} catch {
			// Settings the adapter refuses: the next send syncs them again and shows why, with Retry.
		}
	}

	/** A new chat starts with the agent used last. */
	private async remember(agent: Agent): Promise<void> {
		if (agent.path === "" || this.host.settings.lastAgent === agent.path) return;
		this.host.settings.lastAgent = agent.path;
		await this.host.saveSettings().catch(() => undefined);
	}

	private async save(id: string): Promise<void> {
		const sessions = this.runtime()?.sessions;
		const path = this.agent?.path;
		if (!sessions?.setAgent || path === undefined || path === "") return;
		try {
			await sessions.setAgent(id, path);
			this.savedFor = id;
		} catch (err) {
			new Notice(t("agents.saveFailed", { error: err instanceof Error ? err.message : String(err) }));
		}
	}
}

/**
 * The agent's default sources as the panel's source refs; a link to no note is left out, and so is
 * one into a fenced folder (`fenced`: the chats, config and excluded folders): an agent note cannot
 * add what the person kept out. Folder sources are fenced note by note where they are read.
 */
export function sourceRefsOf(app: App, agent: Agent, fenced: (path: string) => boolean = () => false): SourceRef[] {
	const refs: SourceRef[] = [];
	for (const source of agent.sources) {
		if (source.type === "folder") refs.push({ type: "folder", path: source.path });
		else {
			const file = app.metadataCache.getFirstLinkpathDest(source.link, agent.path);
			if (file instanceof TFile && !fenced(file.path)) refs.push({ type: "note", path: file.path });
		}
	}
	return refs;
}
