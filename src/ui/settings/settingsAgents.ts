// The settings tab's Agents section: the agents folder, every agent note (name, model, the note's
// path, whether it is approved as it is, Open) with a broken one's problem shown where it is listed,
// and "New agent", which creates a note from the template (approved as made) and opens it.
import { Setting } from "obsidian";
import { DEFAULT_SETTINGS, FIELD_LABELS, validateSettings, type DiscoverSettings } from "../../settings/settings";
import type { AgentsPort } from "../agents/agentsPort";
import { agentIssueText } from "../agents/agentIssueText";
import { t } from "../../i18n";

export interface AgentSettingsStore {
	readonly settings: DiscoverSettings;
	saveSettings(): Promise<void>;
	readonly agents?: AgentsPort;
}

export class AgentsSection {
	private listEl: HTMLElement | null = null;

	constructor(
		private readonly store: AgentSettingsStore,
		private readonly report: (message: string) => void,
	) {}

	render(containerEl: HTMLElement): void {
		const agents = this.store.agents;
		if (!agents) return;
		new Setting(containerEl).setName(t("settings.agentsHeading")).setHeading();
		const folder = new Setting(containerEl).setName(FIELD_LABELS.agentsFolder).setDesc(t("settings.agentsFolderDesc"));
		const messageEl = folder.infoEl.createDiv({ cls: ["discover-chat-setting-message", "discover-chat-hidden"], attr: { role: "alert" } });
		folder.addText((c) => {
			c.setPlaceholder(DEFAULT_SETTINGS.agentsFolder).setValue(this.store.settings.agentsFolder);
			c.inputEl.setAttr("aria-label", FIELD_LABELS.agentsFolder);
			c.onChange(async (value) => {
				const path = value.trim();
				const issue = validateSettings({ ...this.store.settings, agentsFolder: path }).find((i) => i.field === "agentsFolder");
				messageEl.setText(issue?.message ?? "");
				messageEl.toggleClass("discover-chat-hidden", !issue);
				if (issue) return;
				this.store.settings.agentsFolder = path;
				await this.store.saveSettings();
			});
		});
		// A row like the others (a name, what it does, its button), not a button floating on its own.
		new Setting(containerEl)
			.setName(t("settings.agentNew"))
			.setDesc(t("settings.agentNewDesc"))
			.addButton((b) =>
				b
					.setButtonText(t("settings.agentCreate"))
					.setCta()
					.onClick(async () => {
						try {
							const path = await agents.create();
							await agents.open(path);
							await this.refresh();
						} catch (err) {
							this.report(t("settings.agentCreateFailed", { error: err instanceof Error ? err.message : String(err) }));
						}
					}),
			);
		this.listEl = containerEl.createDiv({ cls: "discover-chat-agent-list" });
		void this.refresh();
	}

	/** Lists the agents afresh (reading their notes). */
	async refresh(): Promise<void> {
		const el = this.listEl;
		const agents = this.store.agents;
		if (!el || !agents) return;
		let listed: Awaited<ReturnType<AgentsPort["list"]>>;
		try {
			listed = await agents.list();
		} catch (err) {
			el.empty();
			el.createDiv({ cls: "discover-chat-setting-message", text: t("agents.readFailed", { error: err instanceof Error ? err.message : String(err) }) });
			return;
		}
		el.empty();
		const rows = [
			...listed.agents.map((agent) => ({ path: agent.path, name: agent.name, desc: t("settings.agentDesc", { model: agent.model ?? t("settings.agentChatModel"), path: agent.path }), broken: false, approved: agents.approval(agent).state === "approved" })),
			...listed.issues.map((issue) => ({ path: issue.path, name: issue.path.split("/").pop()?.replace(/\.md$/i, "") ?? issue.path, desc: agentIssueText(issue), broken: true, approved: false })),
		];
		rows.sort((a, b) => a.path.localeCompare(b.path));
		for (const row of rows) {
			const setting = new Setting(el).setName(row.name).setDesc(row.desc);
			if (row.broken) setting.descEl.addClass("discover-chat-agent-broken");
			// Approved as it is, or waiting for the review card in the chat (a broken note cannot be used at all).
			else setting.descEl.createDiv({ cls: ["discover-chat-agent-state", row.approved ? "is-approved" : "needs-review"], text: t(row.approved ? "settings.agentApproved" : "settings.agentNeedsReview") });
			setting.addButton((b) => b.setButtonText(t("settings.agentOpen")).onClick(() => void agents.open(row.path)));
		}
	}
}
