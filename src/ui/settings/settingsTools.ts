// The settings tab's Tools section: whether read tools run unasked, and every "always allow" rule
// with its scope (a folder or the whole vault, perhaps limited to one agent), when it was granted
// and a Revoke button. The rules live in settings.toolRules; the permission rules read them at
// each call, so a revoked rule asks again from its next call on.
import { Setting } from "obsidian";
import { FIELD_LABELS, type DiscoverSettings } from "../../settings/settings";
import { formatWhen, t } from "../../i18n";
import { pathSegments } from "../../core/pathFences";
import type { AlwaysRule } from "../../tools/permissions";
import { agentName, scopeFolderName, titleValue } from "../panel/permissionText";

/** A rule in words: "edit_note in Projects/", "create_note anywhere in the vault", "…, for agent Writer". */
export function ruleScopeText(rule: AlwaysRule): string {
	const where = rule.mcp !== undefined ? t("settings.toolRuleMcp", { tool: titleValue(rule.mcp.tool), server: titleValue(rule.mcp.server) }) : pathSegments(rule.folder).length === 0 ? t("settings.toolRuleVault", { tool: rule.tool }) : t("settings.toolRuleIn", { tool: rule.tool, folder: scopeFolderName(rule.folder) });
	return rule.agent === undefined ? where : t("settings.toolRuleForAgent", { rule: where, agent: agentName(rule.agent) });
}

/** What the section needs: the settings, mutable, and a way to save them. */
export interface ToolSettingsStore {
	readonly settings: DiscoverSettings;
	saveSettings(): Promise<void>;
}

export class ToolsSection {
	private rulesEl: HTMLElement | null = null;
	/** The "Always allowed tools" row: with no rule, its description says so. */
	private rulesHeader: Setting | null = null;
	private noneEl: HTMLElement | null = null;

	constructor(
		private readonly store: ToolSettingsStore,
		/** Shows a failure to the person (a Notice in the tab). */
		private readonly report: (message: string) => void,
	) {}

	render(containerEl: HTMLElement): void {
		const s = this.store.settings;
		new Setting(containerEl).setName(t("settings.toolsHeading")).setHeading();
		new Setting(containerEl)
			.setName(FIELD_LABELS.toolsReadAllowed)
			.setDesc(t("settings.toolsReadDesc"))
			.addToggle((c) =>
				c.setValue(s.toolsReadAllowed).onChange(async (on) => {
					s.toolsReadAllowed = on;
					await this.store.saveSettings();
				}),
			);
		this.rulesHeader = new Setting(containerEl).setName(FIELD_LABELS.toolRules).setDesc(t("settings.toolRulesDesc"));
		this.rulesEl = containerEl.createDiv({ cls: "discover-chat-tool-rules" });
		this.renderRules();
	}

	private renderRules(): void {
		const el = this.rulesEl;
		if (!el) return;
		el.empty();
		this.noneEl?.remove();
		this.noneEl = null;
		const rules = this.store.settings.toolRules;
		if (rules.length === 0) {
			// A line of the row's own description, so it sits as Obsidian's descriptions do (a bare
			// description div between rows had no row padding and hugged the row above).
			this.noneEl = this.rulesHeader?.descEl.createDiv({ text: t("settings.toolRulesNone") }) ?? null;
			return;
		}
		for (const rule of rules) {
			new Setting(el)
				.setName(ruleScopeText(rule))
				.setDesc(t("settings.toolRuleGranted", { when: formatWhen(rule.grantedAt) }))
				.addButton((b) =>
					b.setButtonText(t("settings.toolRevoke")).onClick(() => void this.revoke(rule)),
				);
		}
	}

	/** Revokes this one rule (same tool, folder and agent); the tool's other scopes stand. */
	private async revoke(rule: AlwaysRule): Promise<void> {
		const s = this.store.settings;
		const before = s.toolRules;
		s.toolRules = before.filter((r) => !(r.tool === rule.tool && r.folder === rule.folder && (r.agent ?? "") === (rule.agent ?? "")));
		try {
			await this.store.saveSettings();
		} catch (err) {
			// Not saved: the rule stands, and is shown again, so the list never lies.
			s.toolRules = before;
			this.report(t("settings.toolRevokeFailed", { error: err instanceof Error ? err.message : String(err) }));
		}
		this.renderRules();
	}
}
