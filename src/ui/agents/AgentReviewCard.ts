// The agent review card: before an agent's first use, and after any change to what it may do, the
// panel says in plain words where its requests go (and with which key), which writes run without
// asking and where, what every message carries, and its instructions; for a changed agent, what
// changed since the approved version (a diff of those fields). Approve approves exactly the version
// shown; until then the chat uses the default agent. Everything from the note is untrusted text
// (createEl/setText, never HTML or Markdown).
import type { AgentSnapshot } from "../../agents/agentTrust";
import { agentSnapshot } from "../../agents/agentTrust";
import { agentFacts, snapshotText, type AgentFacts } from "../../agents/agentFacts";
import type { KeySettings } from "../../settings/keyBinding";
import { unifiedDiff } from "../../tools/diff";
import { t } from "../../i18n";
import { setTextWithCode } from "../inlineCode";
import { renderDiff } from "../panel/DiffView";
import { titleValue, visibleText } from "../panel/permissionText";
import type { AgentReview } from "./agentsPort";

export interface ReviewActions {
	/** Approve the version shown, then use it. */
	approve(): Promise<void>;
	/** Keep the default agent. */
	useDefault(): void;
	/** Open the agent's note. */
	open(): void;
}

let cardCount = 0;

/** The key line: which key goes to the agent's server, or why none does. */
function keyLine(facts: AgentFacts): string {
	const key = facts.key;
	switch (key.kind) {
		case "own":
			return t("review.keyOwn", { secret: key.secret, origin: facts.origin });
		case "settings":
			return t("review.keySettings", { secret: key.secret, origin: facts.origin });
		case "withheld":
			return t("review.keyWithheld", { settingsOrigin: key.settingsOrigin });
		case "bound":
			return t("review.keyBound", { secret: key.secret, settingsOrigin: key.settingsOrigin });
		case "none":
			return t("review.keyNone");
	}
}

/** The facts as sentences, in the order a careful person asks about them. */
export function reviewLines(facts: AgentFacts): string[] {
	const lines = [t("review.sends", { origin: facts.origin, provider: facts.provider, model: facts.model ?? t("settings.agentChatModel") }), keyLine(facts)];
	if (facts.writes) lines.push(facts.unaskedWriteFolders.length > 0 ? t("review.writesUnasked", { folders: facts.unaskedWriteFolders.map((f) => `${f}/`).join(", ") }) : t("review.writesAsk"));
	if (facts.reads) lines.push(t("review.reads"));
	if (facts.sources.length > 0) lines.push(t("review.sources", { sources: facts.sources.join(", ") }));
	// Only what the note names: an agent without `mcp:` reaches what a chat without an agent does.
	if (facts.mcp !== undefined) lines.push(facts.mcp.length > 0 ? t("review.mcp", { servers: facts.mcp.map((s) => `\`${s}\``).join(", ") }) : t("review.mcpNone"));
	return lines;
}

export class AgentReviewCard {
	readonly el: HTMLElement;
	private settled = false;

	private readonly name: string;

	constructor(
		private readonly parent: HTMLElement,
		review: AgentReview,
		settings: KeySettings,
		private readonly actions: ReviewActions,
	) {
		this.name = titleValue(review.agent.name);
		const id = `discover-agent-review-${++cardCount}`;
		const agent = review.agent;
		this.el = parent.createDiv({ cls: ["discover-agent-review", review.state === "changed" ? "is-changed" : "is-new"], attr: { role: "group", tabindex: "-1", "aria-labelledby": `${id}-title` } });
		this.el.createDiv({ cls: "discover-agent-review-label", text: t("review.label") });
		this.el.createDiv({ cls: "discover-agent-review-title", text: t(review.state === "changed" ? "review.titleChanged" : "review.titleNew", { name: titleValue(agent.name) }), attr: { id: `${id}-title` } });
		this.el.createDiv({ cls: "discover-agent-review-path", text: visibleText(agent.path) });
		const facts = this.el.createEl("ul", { cls: "discover-agent-review-facts" });
		// Hidden and reordering characters in the note's values show as codes: what is read is what runs.
		for (const line of reviewLines(agentFacts(agent, settings))) setTextWithCode(facts.createEl("li"), visibleText(line));
		if (review.state === "changed" && review.approved) this.renderChanges(review.approved.fields, agentSnapshot(agent), review.changed ?? [], agent.path);
		this.renderInstructions(agent.instructions, review.state === "new");
		this.el.createDiv({ cls: "discover-agent-review-waiting", text: t("review.waiting") });
		const buttons = this.el.createDiv({ cls: "discover-agent-review-actions" });
		this.button(buttons, t("review.approve"), ["mod-cta"], () => void this.approve());
		this.button(buttons, t("review.useDefault"), [], () => this.settle(t("review.declinedRecord"), () => this.actions.useDefault()));
		this.button(buttons, t("review.openNote"), ["discover-agent-review-secondary"], () => this.actions.open());
	}

	remove(): void {
		this.settled = true;
		this.el.remove();
	}

	private renderChanges(before: AgentSnapshot, after: AgentSnapshot, changed: readonly string[], path: string): void {
		if (changed.length > 0) setTextWithCode(this.el.createDiv({ cls: "discover-agent-review-changed" }), t("review.changed", { fields: changed.map((f) => `\`${f}\``).join(", ") }));
		renderDiff(this.el, unifiedDiff(snapshotText(before), snapshotText(after), path), t("review.diffLabel", { note: path }), t("review.diffEmpty"));
	}

	private renderInstructions(instructions: string, open: boolean): void {
		const details = this.el.createEl("details", { cls: "discover-agent-review-instructions" });
		if (open) details.setAttr("open", "");
		details.createEl("summary", { text: t("review.instructions") });
		const text = instructions.trim();
		details.createDiv({ cls: "discover-agent-review-instructions-text", text: text === "" ? t("review.noInstructions") : text });
	}

	private button(parent: HTMLElement, text: string, cls: string[], onClick: () => void): HTMLButtonElement {
		const button = parent.createEl("button", { cls: ["discover-agent-review-button", ...cls], text, attr: { type: "button" } });
		button.addEventListener("click", onClick);
		return button;
	}

	private async approve(): Promise<void> {
		if (this.settled) return;
		this.settled = true;
		try {
			await this.actions.approve();
			// The chat took the agent (and took the card away); a card shown since (the note changed
			// again meanwhile) stays instead of the record.
			const record = createDiv({ cls: "discover-agent-review-record", text: t("review.approvedRecord", { name: this.name }) });
			if (this.el.isConnected) this.el.replaceWith(record);
			else if (this.parent.childElementCount === 0) this.parent.appendChild(record);
		} catch (err) {
			this.settled = false;
			this.el.createDiv({ cls: "discover-agent-review-error", text: t("review.approveFailed", { error: err instanceof Error ? err.message : String(err) }), attr: { role: "alert" } });
		}
	}

	/** The card gives way to a one-line record of the decision. */
	private settle(record: string, then: () => void): void {
		if (this.settled) return;
		this.settled = true;
		const line = createDiv({ cls: "discover-agent-review-record", text: record });
		this.el.replaceWith(line);
		then();
	}
}
