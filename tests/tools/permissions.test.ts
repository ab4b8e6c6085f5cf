import { describe, expect, it } from "vitest";
import type { ToolCall } from "../../src/core/types";
import type { ToolApprover } from "../../src/chat/toolCard";
import { PermissionRules, type AccessDecision, type AlwaysRule, type RuleStore } from "../../src/tools/permissions";
import type { Tool, ToolPreview } from "../../src/tools/types";
import { toolbox } from "./support";

function store(readAllowed = true): RuleStore & { rules: AlwaysRule[]; saves: number } {
	const s = {
		rules: [] as AlwaysRule[],
		saves: 0,
		readAllowed: () => readAllowed,
		alwaysRules: () => s.rules,
		saveAlwaysRules: (rules: AlwaysRule[]) => {
			s.rules = rules;
			s.saves++;
			return Promise.resolve();
		},
	};
	return s;
}

const call = (name: string, args: Record<string, unknown> = {}, id = "c1"): ToolCall => ({ id, name, arguments: args });

function asker(...decisions: AccessDecision[]) {
	const asked: { call: ToolCall; tool: Tool; preview: ToolPreview | undefined }[] = [];
	const ask = (c: ToolCall, tool: Tool, preview: ToolPreview | undefined): Promise<AccessDecision> => {
		asked.push({ call: c, tool, preview });
		const next = decisions.shift();
		return next ? Promise.resolve(next) : Promise.reject(new Error("no answer"));
	};
	return { ask, asked };
}

describe("tool permissions", () => {
	const { tool } = toolbox({ "a.md": "alpha\n" });
	const edit = tool("edit_note");
	const read = tool("read_note");
	const appendArgs = { path: "a.md", mode: "append", text: "beta" };

	it("allows read tools unasked by default; with the setting off they ask", async () => {
		const on = new PermissionRules(store(true)).approverFor("chat", asker().ask);
		expect(await on(call("read_note"), read)).toBe("allow");
		const { ask, asked } = asker({ kind: "deny" });
		const off = new PermissionRules(store(false)).approverFor("chat", ask);
		expect(await off(call("read_note"), read)).toBe("deny");
		expect(asked).toHaveLength(1);
		expect(asked[0]?.preview).toBeUndefined();
	});

	it("asks for write tools every time, with the preview; Allow once allows only that call", async () => {
		const { ask, asked } = asker({ kind: "once" }, { kind: "once" });
		const approver = new PermissionRules(store()).approverFor("chat", ask);
		expect(await approver(call("edit_note", appendArgs), edit)).toBe("allow");
		expect(await approver(call("edit_note", appendArgs, "c2"), edit)).toBe("allow");
		expect(asked).toHaveLength(2);
		expect(asked[0]?.preview).toMatchObject({ path: "a.md", before: "alpha\n" });
		expect(asked[0]?.preview?.diff).toContain("+beta");
	});

	it("Allow for this chat stops asking in that chat only", async () => {
		const rules = new PermissionRules(store());
		const first = asker({ kind: "chat" });
		const chatA = rules.approverFor("A", first.ask);
		expect(await chatA(call("edit_note", appendArgs), edit)).toBe("allow");
		expect(await chatA(call("edit_note", appendArgs, "c2"), edit)).toBe("allow");
		expect(first.asked).toHaveLength(1);
		const other = asker({ kind: "deny" });
		expect(await rules.approverFor("B", other.ask)(call("edit_note", appendArgs), edit)).toBe("deny");
		expect(other.asked).toHaveLength(1);
		rules.forgetChat("A");
		expect(rules.chatAllows("A", "edit_note")).toBe(false);
	});

	it("Always allow saves a rule with when it was granted; revoking it asks again", async () => {
		const saved = store();
		const rules = new PermissionRules(saved, () => new Date("2026-11-24T10:00:00Z"));
		const { ask, asked } = asker({ kind: "always" }, { kind: "once" });
		const approver = rules.approverFor("A", ask);
		expect(await approver(call("edit_note", appendArgs), edit)).toBe("allow");
		// The card's default scope: the folder of the path (a note at the root: that note).
		expect(saved.rules).toEqual([{ tool: "edit_note", folder: "a.md", grantedAt: "2026-11-24T10:00:00.000Z" }]);
		expect(await rules.approverFor("B", ask)(call("edit_note", appendArgs), edit)).toBe("allow");
		expect(asked).toHaveLength(1);
		await rules.revoke("edit_note");
		expect(saved.rules).toEqual([]);
		expect(await approver(call("edit_note", appendArgs, "c3"), edit)).toBe("allow");
		expect(asked).toHaveLength(2);
	});

	it("Deny gives the model the person's reason (the loop says \"The person declined: …\"), or a plain refusal", async () => {
		const { ask } = asker({ kind: "deny", reason: "  not this note " }, { kind: "deny" });
		const approver = new PermissionRules(store()).approverFor("A", ask);
		expect(await approver(call("edit_note", appendArgs, "x"), edit)).toEqual({ deny: "not this note" });
		expect(await approver(call("edit_note", appendArgs, "y"), edit)).toBe("deny");
	});

	it("a write whose preview cannot be made is not run and not asked about; the model gets why", async () => {
		const { ask, asked } = asker({ kind: "once" });
		const approver = new PermissionRules(store()).approverFor("A", ask);
		const answer = await approver(call("edit_note", { path: "../x.md", mode: "append", text: "x" }), edit);
		expect(asked).toHaveLength(0);
		expect(answer).toEqual({ deny: expect.stringContaining("nothing was written") as string });
		expect(JSON.stringify(answer)).toContain("leaves the vault");
	});

	it("an ask that fails (no answer) is a denial", async () => {
		const approver = new PermissionRules(store()).approverFor("A", asker().ask);
		expect(await approver(call("edit_note", appendArgs), edit)).toEqual({ deny: "no answer" });
	});

	it("is the engine's approver: its answers are the loop's, and it takes the loop's tools", () => {
		const engineApprove: ToolApprover = new PermissionRules(store()).approverFor("A", asker().ask);
		expect(typeof engineApprove).toBe("function");
	});

	it("granting the same tool twice keeps one rule", async () => {
		const saved = store();
		const rules = new PermissionRules(saved);
		await rules.grantAlways("create_note");
		await rules.grantAlways("create_note");
		expect(saved.rules).toHaveLength(1);
		expect(rules.allowsUnasked("any", { name: "create_note", access: "write" })).toBe(true);
	});
});
