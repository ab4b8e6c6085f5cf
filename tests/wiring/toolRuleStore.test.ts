import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../src/settings/settings";
import { PermissionRules } from "../../src/tools/permissions";
import { settingsRuleStore } from "../../src/wiring/toolRuleStore";
import { toolbox } from "../tools/support";

describe("permission rules over the plugin's settings", () => {
	it("an Always allow is saved in settings.toolRules; a revoke there (the settings tab) applies at the next call", async () => {
		const host = { settings: { ...DEFAULT_SETTINGS, toolRules: [] as typeof DEFAULT_SETTINGS.toolRules }, saves: 0, saveSettings: () => Promise.resolve(void host.saves++) };
		const rules = new PermissionRules(settingsRuleStore(host), () => new Date("2026-11-24T12:00:00Z"));
		const asked: string[] = [];
		const approve = rules.approverFor("chat", (call) => {
			asked.push(call.id);
			return Promise.resolve({ kind: "always" });
		});
		const tool = toolbox({}).tool("create_note");
		const args = (name: string): Record<string, unknown> => ({ path: `Inbox/${name}.md`, content: "x" });
		expect(await approve({ id: "a", name: "create_note", arguments: args("a") }, tool)).toBe("allow");
		expect(host.settings.toolRules).toEqual([{ tool: "create_note", folder: "Inbox", grantedAt: "2026-11-24T12:00:00.000Z" }]);
		expect(host.saves).toBe(1);
		expect(await approve({ id: "b", name: "create_note", arguments: args("b") }, tool)).toBe("allow");
		expect(asked).toEqual(["a"]);
		host.settings.toolRules = [];
		await approve({ id: "c", name: "create_note", arguments: args("c") }, tool);
		expect(asked).toEqual(["a", "c"]);
		host.settings.toolsReadAllowed = false;
		expect(rules.allowsUnasked("chat", { name: "read_note", access: "read" })).toBe(false);
	});
});
