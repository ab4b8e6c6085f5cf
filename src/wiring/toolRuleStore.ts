// The permission rules' store over the plugin's settings: `toolsReadAllowed` and the "always"
// rules in `toolRules`, read at each call (so a Revoke in the settings tab applies at once) and
// saved with the rest of the settings.
import type { DiscoverSettings } from "../settings/settings";
import type { AlwaysRule, RuleStore } from "../tools/permissions";

export interface SettingsHost {
	readonly settings: DiscoverSettings;
	saveSettings(): Promise<void>;
}

export function settingsRuleStore(host: SettingsHost): RuleStore {
	return {
		readAllowed: () => host.settings.toolsReadAllowed,
		alwaysRules: () => host.settings.toolRules,
		async saveAlwaysRules(rules: AlwaysRule[]) {
			host.settings.toolRules = rules;
			await host.saveSettings();
		},
	};
}
