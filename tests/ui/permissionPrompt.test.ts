// @vitest-environment happy-dom
// The permission prompt a tool card shows for a call waiting for permission: what it says, each
// decision it resolves with, the optional reason, Stop/expiry, the diff, and untrusted text kept text.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { installDomHelpers } from "../obsidian/dom";
import { pressKey, typeInto } from "../obsidian/harness";
import type { ToolCall } from "../../src/core/types";
import type { AccessDecision } from "../../src/tools/permissions";
import type { ToolPreview } from "../../src/tools/types";
import { unifiedDiff } from "../../src/tools/diff";
import { showPermissionPrompt, type PermissionRequest } from "../../src/ui/panel/PermissionPrompt";
import { parseUnifiedDiff } from "../../src/ui/panel/DiffView";
import { describeToolCall } from "../../src/ui/panel/permissionText";

installDomHelpers(window);

afterEach(() => {
	document.body.empty();
});

const READ = { name: "read_note", access: "read" } as const;
const EDIT = { name: "edit_note", access: "write" } as const;
const CREATE = { name: "create_note", access: "write" } as const;

function call(name: string, args: Record<string, unknown>): ToolCall {
	return { id: "call_1", name, arguments: args };
}

function preview(path: string, before: string, after: string): ToolPreview {
	return { path, before, after, diff: unifiedDiff(before, after, path) };
}

const PLAN_BEFORE = "# Plan\n\n- one\n- two\n- three\n";
const PLAN_AFTER = "# Plan\n\n- one\n- 2\n- three\n- four\n";
const editRequest = (): PermissionRequest => ({
	call: call("edit_note", { path: "Projects/Plan.md", mode: "replace", old_text: "- two", new_text: "- 2" }),
	tool: EDIT,
	preview: preview("Projects/Plan.md", PLAN_BEFORE, PLAN_AFTER),
});
const readRequest = (): PermissionRequest => ({ call: call("read_note", { path: "Projects/Plan.md" }), tool: READ });

/** Shows a prompt in a fresh parent; `settled` tells whether the promise has resolved yet. */
function show(req: PermissionRequest, signal?: AbortSignal) {
	const parent = document.body.createDiv();
	let settled: AccessDecision | undefined;
	const decision = showPermissionPrompt(parent, req, signal).then((d) => (settled = d));
	const button = (text: string): HTMLButtonElement => {
		const found = Array.from(parent.querySelectorAll("button")).find((b) => b.textContent === text);
		if (!found) throw new Error(`No button "${text}"; there are: ${Array.from(parent.querySelectorAll("button"), (b) => b.textContent).join(", ")}`);
		return found;
	};
	const visibleButtons = (): string[] => Array.from(parent.querySelectorAll("button")).filter((b) => !b.closest(".discover-chat-hidden")).map((b) => b.textContent ?? "");
	const prompt = (): HTMLElement | null => parent.querySelector<HTMLElement>(".discover-permission");
	const reasonInput = (): HTMLInputElement | null => parent.querySelector<HTMLInputElement>("input.discover-permission-reason-input");
	return { parent, decision, settled: () => settled, button, visibleButtons, prompt, reasonInput };
}

const tick = (): Promise<void> => new Promise((r) => window.setTimeout(r, 0));

describe("the permission prompt says what the model wants to do, in the person's words", () => {
	it("names the edit, the new note, the read, the search and the listing", () => {
		expect(describeToolCall(call("edit_note", { path: "Projects/Plan.md", mode: "append", text: "x" }), EDIT)).toBe("Edit Projects/Plan.md");
		expect(describeToolCall(call("create_note", { path: "Inbox/Idea.md", content: "x" }), CREATE)).toBe("Create Inbox/Idea.md");
		expect(describeToolCall(call("read_note", { path: "Projects/Plan.md" }), READ)).toBe("Read Projects/Plan.md");
		expect(describeToolCall(call("get_active_note", {}), { name: "get_active_note", access: "read" })).toBe("Read the open note");
		expect(describeToolCall(call("search_notes", { query: "budget 2027" }), { name: "search_notes", access: "read" })).toBe("Search your notes for “budget 2027”");
		const list = { name: "list_notes", access: "read" } as const;
		expect(describeToolCall(call("list_notes", { folder: "Projects" }), list)).toBe("List the notes in Projects");
		expect(describeToolCall(call("list_notes", { tag: "#project" }), list)).toBe("List the notes tagged #project");
		expect(describeToolCall(call("list_notes", { recent: true }), list)).toBe("List recently changed notes");
		expect(describeToolCall(call("list_notes", {}), list)).toBe("List your notes");
		expect(describeToolCall(call("fetch_weather", { city: "Oslo" }), { name: "fetch_weather", access: "read" })).toBe("Use the tool fetch_weather");
		expect(describeToolCall(call("rename_note", {}), { name: "rename_note", access: "write" })).toBe("Use the tool rename_note, which can change your notes");
	});

	it("names the note the preview resolved, which is what would change, over the raw argument", () => {
		const p = preview("Projects/Plan.md", "a\n", "b\n");
		expect(describeToolCall(call("edit_note", { path: "./Projects//Plan.md" }), EDIT, p)).toBe("Edit Projects/Plan.md");
	});

	it("shows the title in the prompt, labels the prompt with it, and folds the call's arguments", () => {
		const { prompt } = show(editRequest());
		const el = prompt();
		const title = el?.querySelector(".discover-permission-title");
		expect(title?.textContent).toBe("Edit Projects/Plan.md");
		expect(el?.getAttribute("aria-labelledby")).toBe(title?.id);
		const details = el?.querySelector("details.discover-permission-args");
		expect(details?.hasAttribute("open")).toBe(false);
		expect(details?.querySelector("summary")?.textContent).toBe("Details");
		const args = Array.from(details?.querySelectorAll(".discover-permission-arg") ?? [], (row) => [row.querySelector(".discover-permission-arg-name")?.textContent, row.querySelector(".discover-permission-arg-value")?.textContent]);
		expect(args).toEqual([
			["path", "Projects/Plan.md"],
			["mode", "replace"],
			["old_text", "- two"],
			["new_text", "- 2"],
		]);
	});

	it("cuts a very long value in the one-line title (the details keep it whole)", () => {
		const path = `${"a".repeat(400)}.md`;
		const { prompt } = show({ call: call("read_note", { path }), tool: READ });
		const title = prompt()?.querySelector(".discover-permission-title")?.textContent ?? "";
		expect(title.length).toBeLessThan(140);
		expect(title.endsWith("…")).toBe(true);
		expect(prompt()?.querySelector(".discover-permission-arg-value")?.textContent).toBe(path);
	});
});

describe("each decision resolves the prompt and leaves a one-line record", () => {
	it.each([
		["Accept", { kind: "once" }, "Allowed once"],
		["Allow for this chat", { kind: "chat" }, "Allowed for this chat"],
		["Always allow", { kind: "always" }, "Always allowed"],
	] as const)("a write with a preview: %s", async (label, decision, record) => {
		const p = show(editRequest());
		expect(p.visibleButtons()).toEqual(["Accept", "Reject", "Allow for this chat", "Always allow"]);
		p.button(label).click();
		expect(await p.decision).toEqual(decision);
		expect(p.prompt()).toBeNull();
		const line = p.parent.querySelector(".discover-permission-record");
		expect(line?.textContent).toBe(record);
		expect(p.parent.children).toHaveLength(1);
	});

	it.each([
		["Allow once", { kind: "once" }, "Allowed once"],
		["Allow for this chat", { kind: "chat" }, "Allowed for this chat"],
		["Always allow", { kind: "always" }, "Always allowed"],
	] as const)("a read: %s", async (label, decision, record) => {
		const p = show(readRequest());
		expect(p.visibleButtons()).toEqual(["Allow once", "Allow for this chat", "Always allow", "Deny"]);
		p.button(label).click();
		expect(await p.decision).toEqual(decision);
		expect(p.parent.querySelector(".discover-permission-record")?.textContent).toBe(record);
	});

	it("a write without a preview asks as a read does (there is nothing to accept)", async () => {
		const p = show({ call: call("create_note", { path: "Inbox/Idea.md", content: "hi" }), tool: CREATE });
		expect(p.parent.querySelector(".discover-permission-diff")).toBeNull();
		expect(p.visibleButtons()).toEqual(["Allow once", "Allow for this chat", "Always allow", "Deny"]);
		p.button("Allow once").click();
		expect(await p.decision).toEqual({ kind: "once" });
	});

	it("a second click after the decision changes nothing", async () => {
		const p = show(readRequest());
		const once = p.button("Allow once");
		const always = p.button("Always allow");
		once.click();
		always.click();
		expect(await p.decision).toEqual({ kind: "once" });
		expect(p.parent.querySelectorAll(".discover-permission-record")).toHaveLength(1);
	});
});

describe("Deny and Reject take an optional reason", () => {
	it("Reject opens the reason field; Enter sends the reason, and the record shows it", async () => {
		const p = show(editRequest());
		p.button("Reject").click();
		const input = p.reasonInput();
		expect(input).not.toBeNull();
		expect(document.activeElement).toBe(input);
		expect(p.visibleButtons()).toEqual(["Decline", "Back"]);
		typeInto(input as HTMLInputElement, "  keep the old wording  ");
		pressKey(input as HTMLInputElement, "Enter");
		expect(await p.decision).toEqual({ kind: "deny", reason: "keep the old wording" });
		expect(p.parent.querySelector(".discover-permission-record")?.textContent).toBe("Declined: keep the old wording");
	});

	it("Deny with an empty reason sends a plain deny", async () => {
		const p = show(readRequest());
		p.button("Deny").click();
		p.button("Decline").click();
		const decision = await p.decision;
		expect(decision).toEqual({ kind: "deny" });
		expect("reason" in decision).toBe(false);
		expect(p.parent.querySelector(".discover-permission-record")?.textContent).toBe("Declined");
	});

	it("Escape goes back to the choices, with focus on Reject, and decides nothing", async () => {
		const p = show(editRequest());
		p.button("Reject").click();
		const input = p.reasonInput() as HTMLInputElement;
		typeInto(input, "hmm");
		const evt = pressKey(input, "Escape");
		expect(evt.defaultPrevented).toBe(true);
		await tick();
		expect(p.settled()).toBeUndefined();
		expect(p.reasonInput()).toBeNull();
		expect(p.visibleButtons()).toEqual(["Accept", "Reject", "Allow for this chat", "Always allow"]);
		expect(document.activeElement).toBe(p.button("Reject"));
		p.button("Accept").click();
		expect(await p.decision).toEqual({ kind: "once" });
	});

	it("Back goes back to the choices too", async () => {
		const p = show(readRequest());
		p.button("Deny").click();
		p.button("Back").click();
		await tick();
		expect(p.settled()).toBeUndefined();
		expect(p.visibleButtons()).toEqual(["Allow once", "Allow for this chat", "Always allow", "Deny"]);
	});

	it("an Enter that confirms an input method's composition does not send", async () => {
		const p = show(readRequest());
		p.button("Deny").click();
		const input = p.reasonInput() as HTMLInputElement;
		typeInto(input, "理由");
		input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", isComposing: true, bubbles: true, cancelable: true }));
		await tick();
		expect(p.settled()).toBeUndefined();
		pressKey(input, "Enter");
		expect(await p.decision).toEqual({ kind: "deny", reason: "理由" });
	});

	it("the field takes no more than the 500 characters the engine sends", () => {
		const p = show(readRequest());
		p.button("Deny").click();
		expect(p.reasonInput()?.maxLength).toBe(500);
	});
});

describe("Stop and the 5-minute expiry (an aborted signal)", () => {
	it("remove the prompt and resolve a deny without a reason", async () => {
		const stop = new AbortController();
		const p = show(editRequest(), stop.signal);
		p.parent.prepend(createDiv({ text: "the card's own line" }));
		p.button("Reject").click();
		typeInto(p.reasonInput() as HTMLInputElement, "half-typed");
		stop.abort();
		expect(await p.decision).toEqual({ kind: "deny" });
		expect(p.prompt()).toBeNull();
		expect(p.parent.querySelector(".discover-permission-record")).toBeNull();
		expect(p.parent.textContent).toBe("the card's own line");
	});

	it("an already aborted signal shows nothing and denies at once", async () => {
		const stop = new AbortController();
		stop.abort();
		const p = show(readRequest(), stop.signal);
		expect(await p.decision).toEqual({ kind: "deny" });
		expect(p.parent.childElementCount).toBe(0);
	});

	it("after a decision an abort changes nothing", async () => {
		const stop = new AbortController();
		const p = show(readRequest(), stop.signal);
		p.button("Always allow").click();
		stop.abort();
		expect(await p.decision).toEqual({ kind: "always" });
		expect(p.parent.querySelector(".discover-permission-record")?.textContent).toBe("Always allowed");
	});
});

describe("keyboard and screen readers", () => {
	it("focus lands on the prompt; the choices are real buttons whose labels start with what they show", () => {
		const p = show(editRequest());
		expect(document.activeElement).toBe(p.prompt());
		for (const b of Array.from(p.parent.querySelectorAll("button"))) {
			expect(b.getAttribute("type")).toBe("button");
			expect(b.getAttribute("aria-label")?.startsWith(b.textContent ?? "\u0000")).toBe(true);
		}
		expect(p.button("Always allow").getAttribute("aria-label")).toContain("edit_note");
	});

	it("Tab walks the details, the diff, then the decision before the wider grants", () => {
		const p = show(editRequest());
		const focusable = Array.from(p.parent.querySelectorAll<HTMLElement>("summary, button, [tabindex='0'], input"));
		const name = (el: HTMLElement): string => (el.tagName === "BUTTON" ? (el.textContent ?? "") : el.tagName === "SUMMARY" ? "summary" : el.className);
		expect(focusable.map(name)).toEqual([
			"summary",
			"discover-permission-diff",
			"Accept",
			"Reject",
			"Allow for this chat",
			"Always allow",
		]);
	});

	it("the record takes the focus the prompt had, so keyboard users keep their place", async () => {
		const p = show(readRequest());
		p.button("Allow once").focus();
		p.button("Allow once").click();
		await p.decision;
		expect(document.activeElement).toBe(p.parent.querySelector(".discover-permission-record"));
	});
});

describe("the diff of a write", () => {
	const lines = (parent: HTMLElement, kind: string): string[] => Array.from(parent.querySelectorAll(`.discover-permission-diff-line.is-${kind} .discover-permission-diff-text`), (el) => el.textContent ?? "");

	it("classes added, removed and unchanged lines, with hunk headers and line numbers", () => {
		const p = show(editRequest());
		expect(lines(p.parent, "added")).toEqual(["- 2", "- four"]);
		expect(lines(p.parent, "removed")).toEqual(["- two"]);
		expect(lines(p.parent, "context")).toEqual(["# Plan", "", "- one", "- three"]);
		expect(Array.from(p.parent.querySelectorAll(".discover-permission-diff-hunk"), (h) => h.textContent)).toEqual(["@@ -1,5 +1,6 @@"]);
		const numbers = (text: string): (string | null)[] => {
			const row = Array.from(p.parent.querySelectorAll(".discover-permission-diff-line")).find((r) => r.querySelector(".discover-permission-diff-text")?.textContent === text);
			return Array.from(row?.querySelectorAll(".discover-permission-diff-num") ?? [], (n) => n.textContent);
		};
		expect(numbers("- two")).toEqual(["4", ""]);
		expect(numbers("- 2")).toEqual(["", "4"]);
		expect(numbers("- three")).toEqual(["5", "5"]);
		expect(numbers("- four")).toEqual(["", "6"]);
		expect(p.parent.querySelector(".discover-permission-diff")?.getAttribute("aria-label")).toBe("Changes to Projects/Plan.md");
	});

	it("reads a new note's diff from line 1, and a '---' inside a hunk as a removed line", () => {
		expect(parseUnifiedDiff(unifiedDiff("", "a\nb\n", "Inbox/Idea.md"))).toEqual([
			{ kind: "hunk", text: "@@ -0,0 +1,2 @@" },
			{ kind: "added", newNo: 1, text: "a" },
			{ kind: "added", newNo: 2, text: "b" },
		]);
		const removedRule = parseUnifiedDiff(unifiedDiff("x\n--\ny\n", "x\ny\n", "N.md")).find((l) => l.kind === "removed");
		expect(removedRule).toEqual({ kind: "removed", oldNo: 2, text: "--" });
	});

	it("says so when no line changes", () => {
		const p = show({ call: call("create_note", { path: "Empty.md", content: "" }), tool: CREATE, preview: { path: "Empty.md", before: "", after: "", diff: "" } });
		expect(p.parent.querySelector(".discover-permission-diff-empty")?.textContent).toBe("No lines change.");
	});

	it("a 300-line diff is in a capped, scrolling box, every line present, long lines wrapping", () => {
		const after = Array.from({ length: 300 }, (_, i) => `line ${i + 1} ${i === 150 ? "x".repeat(2000) : ""}`.trimEnd()).join("\n") + "\n";
		const p = show({ call: call("create_note", { path: "Big.md", content: after }), tool: CREATE, preview: preview("Big.md", "", after) });
		const box = p.parent.querySelector(".discover-permission-diff");
		expect(box).not.toBeNull();
		const added = lines(p.parent, "added");
		expect(added).toHaveLength(300);
		expect(added[0]).toBe("line 1");
		expect(added[299]).toBe("line 300");
		expect(added[150]).toHaveLength(`line 151 `.length + 2000);
		const css = readFileSync(join(__dirname, "../../styles.css"), "utf8");
		const rule = (selector: string): string => {
			const m = new RegExp(`(?:^|\\n)${selector.replace(/[.]/g, "\\.")} \\{([^}]*)\\}`).exec(css);
			if (!m?.[1]) throw new Error(`styles.css has no rule for ${selector}`);
			return m[1];
		};
		expect(rule(".discover-permission-diff")).toMatch(/max-height:[^;]+;/);
		expect(rule(".discover-permission-diff")).toMatch(/overflow: auto;/);
		expect(rule(".discover-permission-diff-text")).toMatch(/white-space: pre-wrap;/);
		expect(rule(".discover-permission-diff-text")).toMatch(/overflow-wrap: anywhere;/);
	});
});

describe("untrusted text stays text", () => {
	const HOSTILE = '<img src=http://x/a.png onerror="alert(1)"> ![t](http://x/b.png) <a href="http://x">x</a>';

	it("in the title, the arguments and the diff: no element is made from it, no network resource", () => {
		const path = `Notes/${HOSTILE}.md`;
		const p = show({ call: call("edit_note", { path, mode: "append", text: HOSTILE }), tool: EDIT, preview: preview(path, "old\n", `old\n${HOSTILE}\n`) });
		expect(p.parent.querySelectorAll("img, a, script, iframe, [onerror], [src], [href]")).toHaveLength(0);
		expect(p.parent.querySelector(".discover-permission-title")?.textContent).toBe(`Edit ${path}`);
		expect(Array.from(p.parent.querySelectorAll(".discover-permission-arg-value"), (v) => v.textContent)).toContain(HOSTILE);
		expect(p.parent.querySelector(".discover-permission-diff-line.is-added .discover-permission-diff-text")?.textContent).toBe(HOSTILE);
	});

	it("in the reason the record shows", async () => {
		const p = show(readRequest());
		p.button("Deny").click();
		typeInto(p.reasonInput() as HTMLInputElement, "<img src=http://x>");
		pressKey(p.reasonInput() as HTMLInputElement, "Enter");
		await p.decision;
		expect(p.parent.querySelector("img")).toBeNull();
		expect(p.parent.textContent).toBe("Declined: <img src=http://x>");
	});

	it("characters that hide or reorder text are shown as codes, so a path reads as what it is", () => {
		// U+202E RIGHT-TO-LEFT OVERRIDE would show "Notes/evil‮dm.txt" as "Notes/eviltxt.md".
		const p = show({ call: call("read_note", { path: "Notes/evil\u202Edm.txt\nline" }), tool: READ });
		expect(p.parent.querySelector(".discover-permission-title")?.textContent).toBe("Read Notes/evil\\u{202E}dm.txt\\u{000A}line");
		// In the details a line break stays a line break; the override is still shown.
		expect(p.parent.querySelector(".discover-permission-arg-value")?.textContent).toBe("Notes/evil\\u{202E}dm.txt\nline");
	});
});
