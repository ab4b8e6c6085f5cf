// @vitest-environment happy-dom
// An MCP tool's card: the server and the tool, the server's annotations as hints (the card still
// asks), the arguments as a readable form (label and value, never raw JSON), the progress while it
// runs, and a title that never reads like a change to a note. What the model or server sent only
// ever becomes text.
import { describe, expect, it } from "vitest";
import "../../obsidian/harness";
import { ToolCardView } from "../../../src/ui/panel/tools/ToolCardView";
import { formRows } from "../../../src/ui/panel/tools/mcpCard";
import { ToolCards, savedCard } from "../../../src/ui/panel/tools/ToolCards";
import { describeToolCall } from "../../../src/ui/panel/permissionText";
import type { ToolCard } from "../../../src/chat/toolCard";

const mcp = { server: "files", tool: "write_file", annotations: { readOnlyHint: false, destructiveHint: true } };

function card(extra: Partial<ToolCard>): ToolCard {
	return { id: "c1", index: 0, round: 1, name: "files__write_file", state: "waiting", waitingFor: "permission", access: "write", mcp, arguments: { path: "/tmp/a.md", options: { mode: "append", tags: ["x", "y"] }, html: "<b>bold</b>" }, ...extra };
}

describe("an MCP tool's card", () => {
	it("shows the server, the tool, the hint, and the arguments as label: value rows", () => {
		const parent = document.body.createDiv();
		const view = new ToolCardView(parent, card({}), { tools: () => undefined, onResize: () => undefined });
		const text = parent.textContent ?? "";
		expect(text).toContain("Tool “write_file” of MCP server “files”");
		expect(text).toContain("may delete or overwrite (a hint, not a guarantee)");
		expect(parent.querySelector(".discover-tool-card-title")?.textContent).toBe("Run write_file (files)");
		const labels = [...parent.querySelectorAll(".discover-mcp-arg-label")].map((e) => e.textContent);
		const values = [...parent.querySelectorAll(".discover-mcp-arg-value")].map((e) => e.textContent);
		expect(labels).toEqual(["path", "options.mode", "options.tags[0]", "options.tags[1]", "html"]);
		expect(values).toEqual(["/tmp/a.md", "append", "x", "y", "<b>bold</b>"]);
		// Markup in a value is text, never elements.
		expect(parent.querySelector("b")).toBeNull();
		expect(text).not.toContain('{"mode"');
		view.update(card({ state: "running", waitingFor: undefined, progress: { progress: 2, total: 5, message: "copying" } }));
		expect(parent.querySelector(".discover-mcp-progress")?.textContent).toBe("2 of 5 — copying");
		expect(parent.querySelector("progress")?.getAttribute("value")).toBe("2");
		view.update(card({ state: "done", waitingFor: undefined, result: "ok" }));
		expect(parent.querySelector(".discover-tool-card-title")?.textContent).toBe("Ran write_file (files)");
		expect(parent.querySelector(".discover-mcp-args")).toBeNull();
		parent.remove();
	});

	it("a read-only hint is shown as a hint; a tool without arguments says so", () => {
		const parent = document.body.createDiv();
		new ToolCardView(parent, card({ mcp: { server: "ev", tool: "echo", annotations: { readOnlyHint: true } }, arguments: {} }), { tools: () => undefined, onResize: () => undefined });
		expect(parent.textContent).toContain("read-only (a hint, not a guarantee)");
		expect(parent.textContent).toContain("No arguments.");
		parent.remove();
	});

	it("a huge argument list is capped, with the rest counted", () => {
		const args: Record<string, unknown> = {};
		for (let i = 0; i < 100; i++) args[`k${i}`] = "v".repeat(5000);
		const { rows, more } = formRows(args);
		expect(rows).toHaveLength(40);
		expect(more).toBe(60);
		expect(rows[0]?.value.length).toBeLessThanOrEqual(2001);
	});

	it("the permission prompt is handed the MCP tool's origin, so its title names the server, never a note", async () => {
		const parent = document.body.createDiv();
		const seen: unknown[] = [];
		const cards = new ToolCards({ tools: () => undefined, showPrompt: (_slot, req) => (seen.push(req.tool), Promise.resolve({ kind: "once" })), onResize: () => undefined, liveHost: () => parent });
		const tool = { name: "files__write_file", access: "write" as const, mcp };
		await cards.ask({ id: "c9", name: tool.name, arguments: { path: "a.md" } }, tool, undefined, { marks: [], mcp: { server: "files", tool: "write_file" } });
		expect(seen).toEqual([{ name: "files__write_file", access: "write", mcp }]);
		expect(describeToolCall({ id: "c9", name: tool.name, arguments: { path: "a.md" } }, tool)).toBe("Run write_file (files)");
		parent.remove();
	});

	it("a saved result's card keeps its MCP origin: the server in its title and its block, after a reload", () => {
		const origin = { server: "ev", tool: "echo", annotations: { readOnlyHint: true } };
		const saved = savedCard({ id: "c1", name: "ev__echo", arguments: { text: "hi" } }, 0, { id: "m", role: "tool", content: "hi", toolCallId: "c1", mcp: origin, createdAt: "2026-11-29T00:00:00.000Z" });
		expect(saved.mcp).toEqual(origin);
		const failed = savedCard({ id: "c2", name: "ev__echo", arguments: {} }, 1, { id: "n", role: "tool", content: "no", toolCallId: "c2", isError: true, mcp: origin, createdAt: "2026-11-29T00:00:00.000Z" });
		expect(failed.mcp).toEqual(origin);
	});

	it("a result's images show in the card, live and from a saved result", () => {
		const parent = document.body.createDiv();
		const ref = { path: "Discover/Chats/attachments/tool-c1-1.png", mediaType: "image/png", width: 1, height: 1, bytes: 70 };
		new ToolCardView(parent, card({ state: "done", waitingFor: undefined, result: "[Image: image/png, 70 bytes]", images: [ref] }), { tools: () => undefined, onResize: () => undefined, imageSrc: (r) => `app://vault/${r.path}` });
		expect(parent.querySelector("img")?.getAttribute("src")).toBe("app://vault/Discover/Chats/attachments/tool-c1-1.png");
		const saved = savedCard({ id: "c1", name: "ev__picture", arguments: {} }, 0, { id: "m", role: "tool", content: "x", toolCallId: "c1", attachments: [ref], createdAt: "2026-11-29T00:00:00.000Z" });
		expect(saved.images).toEqual([ref]);
		parent.remove();
	});
});
