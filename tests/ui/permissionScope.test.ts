// @vitest-environment happy-dom
// The permission card's "Always allow" scope: the folder of the path in the card by
// default, the whole vault only by choosing it, "only for" the chat's agent when it has one; and a
// write holding something another plugin may run says so, one line per kind, with no standing
// choice offered. The settings' rule list names each rule's scope.
import { afterEach, describe, expect, it } from "vitest";
import { installDomHelpers } from "../obsidian/dom";
import type { AccessDecision, AskInfo } from "../../src/tools/permissions";
import { unifiedDiff } from "../../src/tools/diff";
import { showPermissionPrompt, type PermissionRequest } from "../../src/ui/panel/PermissionPrompt";
import { ruleScopeText } from "../../src/ui/settings/settingsTools";

installDomHelpers(window);

afterEach(() => {
	document.body.empty();
});

const BEFORE = "# Plan\n";
const AFTER = "# Plan\n\nmore\n";
const request = (info: AskInfo, after = AFTER): PermissionRequest => ({
	call: { id: "c1", name: "edit_note", arguments: { path: "Projects/Plan.md", mode: "append", text: after.slice(BEFORE.length) } },
	tool: { name: "edit_note", access: "write" },
	preview: { path: "Projects/Plan.md", before: BEFORE, after, diff: unifiedDiff(BEFORE, after, "Projects/Plan.md") },
	info,
});

function show(req: PermissionRequest) {
	const parent = document.body.createDiv();
	const decision = showPermissionPrompt(parent, req);
	const buttons = (): string[] => Array.from(parent.querySelectorAll("button"), (b) => b.textContent ?? "");
	const click = (text: string): void => Array.from(parent.querySelectorAll("button")).find((b) => b.textContent === text)!.click();
	const select = (): HTMLSelectElement | null => parent.querySelector("select.discover-permission-scope");
	return { parent, decision, buttons, click, select };
}

describe("Always allow's scope in the permission card", () => {
	it("offers the card's folder first (the default) and the whole vault by choice", async () => {
		const card = show(request({ marks: [], folder: "Projects" }));
		const select = card.select()!;
		expect(select.getAttribute("aria-label")).toBe("Where to always allow");
		expect(Array.from(select.options, (o) => o.text)).toEqual(["In Projects/", "Anywhere in the vault"]);
		expect(select.value).toBe("folder");
		expect(card.buttons()).toEqual(["Accept", "Reject", "Allow for this chat", "Always allow"]);
		card.click("Always allow");
		expect(await card.decision).toEqual({ kind: "always", scope: "folder" } satisfies AccessDecision);
	});

	it("the whole vault, or only for the chat's agent, when chosen", async () => {
		const card = show(request({ marks: [], folder: "Projects", agent: "Discover/Agents/Writer.md" }));
		const select = card.select()!;
		expect(Array.from(select.options, (o) => o.text)).toEqual(["In Projects/", "In Projects/, only for Writer", "Anywhere in the vault", "Anywhere in the vault, only for Writer"]);
		select.value = "vault-agent";
		card.click("Always allow");
		expect(await card.decision).toEqual({ kind: "always", scope: "vault", onlyAgent: true });
	});

	it("a write holding Templater, DataviewJS or an obsidian:// link says so, and offers only this change", async () => {
		const card = show(request({ marks: ["templater", "dataviewjs", "obsidianUri"], folder: "Projects" }, `${BEFORE}<% x %>\n`));
		const lines = Array.from(card.parent.querySelectorAll(".discover-permission-marks > div"), (d) => d.textContent);
		expect(lines).toEqual([
			"This text contains Templater commands that Templater may run.",
			"This text contains DataviewJS code that Dataview may run.",
			"This text contains Obsidian URI links, which can run other plugins' commands.",
			"A change like this is asked about every time.",
		]);
		expect(card.buttons()).toEqual(["Accept", "Reject"]);
		expect(card.select()).toBeNull();
		card.click("Accept");
		expect(await card.decision).toEqual({ kind: "once" });
	});
});

describe("Always allow on an MCP tool's card", () => {
	const mcpRequest = (agent?: string): PermissionRequest => ({
		call: { id: "c1", name: "gh__create_issue", arguments: { title: "Bug" } },
		tool: { name: "gh__create_issue", access: "write", mcp: { server: "gh", tool: "create_issue" } },
		info: { marks: [], mcp: { server: "gh", tool: "create_issue" }, ...(agent !== undefined ? { agent } : {}) },
	});

	it("with an agent: every chat, or only for this agent, chosen beside the button", async () => {
		const card = show(mcpRequest("Discover/Agents/Writer.md"));
		const select = card.select()!;
		expect(select.getAttribute("aria-label")).toBe("Where to always allow");
		expect(Array.from(select.options, (o) => o.text)).toEqual(["In every chat", "Only for Writer"]);
		expect(select.value).toBe("all");
		select.value = "agent";
		card.click("Always allow");
		expect(await card.decision).toEqual({ kind: "always", onlyAgent: true } satisfies AccessDecision);
	});

	it("the default is every chat; without an agent there is nothing to choose", async () => {
		const withAgent = show(mcpRequest("Discover/Agents/Writer.md"));
		withAgent.click("Always allow");
		expect(await withAgent.decision).toEqual({ kind: "always" });
		document.body.empty();
		const plain = show(mcpRequest());
		expect(plain.select()).toBeNull();
		plain.click("Always allow");
		expect(await plain.decision).toEqual({ kind: "always" });
	});
});

describe("the settings' rule list", () => {
	it("names each rule's scope", () => {
		expect(ruleScopeText({ tool: "edit_note", folder: "Projects", grantedAt: "2026-11-28T10:00:00Z" })).toBe("edit_note in Projects/");
		expect(ruleScopeText({ tool: "create_note", folder: "", grantedAt: "2026-11-28T10:00:00Z" })).toBe("create_note anywhere in the vault");
		expect(ruleScopeText({ tool: "edit_note", folder: "Notes", agent: "Discover/Agents/Writer.md", grantedAt: "2026-11-28T10:00:00Z" })).toBe("edit_note in Notes/, for agent Writer");
		expect(ruleScopeText({ tool: "edit_note", folder: "top.md", grantedAt: "2026-11-28T10:00:00Z" })).toBe("edit_note in top.md");
		// An MCP rule limited to an agent says both, so it can be found and revoked.
		expect(ruleScopeText({ tool: "gh__create_issue", folder: "", agent: "Discover/Agents/Writer.md", mcp: { server: "gh", tool: "create_issue" }, grantedAt: "2026-11-29T10:00:00Z" })).toBe("create_issue of MCP server gh, for agent Writer");
	});
});
