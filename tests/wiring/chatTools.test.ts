// @vitest-environment happy-dom
// The panel's engine with the vault tools: the model's calls run over the test vault, a write is
// put to the panel's `ask` with its preview, undone by call id while the note is unchanged, and a
// chat's "allow for this chat" grant goes when the panel forgets the chat.
import { describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp } from "../obsidian/harness";
import { call, ScriptedToolAdapter } from "../support/toolScript";
import { createChatRuntime } from "../../src/wiring/chatRuntime";
import type { DiscoverHost } from "../../src/ui/host";
import type { ChatEvent } from "../../src/ui/ports";
import type { AccessDecision, AskFn, ToolPreview } from "../../src/ui/toolsPort";
import type { ToolCard } from "../../src/chat/toolCard";
import { testSettings } from "../ui/fakes";

const PLAN = "# Plan\n\nShip in June.\n";

async function runtimeWith(decide: (name: string) => AccessDecision, script: ConstructorParameters<typeof ScriptedToolAdapter>[0]) {
	const app = await createTestApp({ files: { "Projects/Plan.md": PLAN } });
	const host: DiscoverHost = { app: asObsidianApp(app), settings: testSettings(), saveSettings: () => Promise.resolve() };
	const asked: { name: string; preview: ToolPreview | undefined }[] = [];
	const ask: AskFn = (c, tool, preview) => {
		asked.push({ name: tool.name, preview });
		return Promise.resolve(decide(tool.name));
	};
	const events: ChatEvent[] = [];
	const runtime = await createChatRuntime(host, (e) => events.push(e), { ask });
	runtime.chat.setAdapter(new ScriptedToolAdapter(script));
	const read = () => app.vault.adapter.read("Projects/Plan.md");
	return { app, host, runtime, asked, events, read };
}

/** The engine's id of the call the server named `serverId` (the cards, the journal and Revert go by it). */
function ours(runtime: Awaited<ReturnType<typeof runtimeWith>>["runtime"], serverId: string): string {
	const found = runtime.chat.messages.flatMap((m) => m.toolCalls ?? []).find((c) => c.serverId === serverId);
	if (!found) throw new Error(`no call ${serverId}`);
	return found.id;
}

const edit = (id: string) => call("edit_note", { path: "Projects/Plan.md", mode: "replace", old_text: "Ship in June.", new_text: "Ship in May." }, { id });

describe("the panel's vault tools", () => {
	it("a read runs unasked, a write asks the panel with its diff, and Revert restores the note by the call's id", async () => {
		const { runtime, asked, events, read } = await runtimeWith(
			() => ({ kind: "once" }),
			(_req, i) => (i === 0 ? { text: "Reading.", calls: [call("read_note", { path: "Projects/Plan.md" }, { id: "r1" })] } : i === 1 ? { calls: [edit("e1")] } : { text: "Moved to May." }),
		);
		await runtime.chat.newSession();
		await runtime.chat.sendMessage("Move the plan to May");
		expect(asked.map((a) => a.name)).toEqual(["edit_note"]);
		expect(asked[0]!.preview?.diff).toContain("+Ship in May.");
		expect(await read()).toContain("Ship in May.");
		const done = events.filter((e): e is { type: "tool"; card: ToolCard } => e.type === "tool" && e.card.state === "done").map((e) => e.card.id);
		const [r1, e1] = [ours(runtime, "r1"), ours(runtime, "e1")];
		expect(done).toEqual([r1, e1]);

		expect(runtime.tools?.canRevert(r1)).toBe(false);
		expect(runtime.tools?.canRevert(e1)).toBe(true);
		// The server's id names nothing the panel can revert.
		expect(runtime.tools?.canRevert("e1")).toBe(false);
		await expect(runtime.tools!.revert(e1)).resolves.toEqual({ ok: true });
		expect(await read()).toBe(PLAN);
		expect(runtime.tools?.canRevert(e1)).toBe(false);
	});

	it("a note changed since the edit is not reverted: the reason is 'changed', and the person's text stays", async () => {
		const { app, runtime, read } = await runtimeWith(
			() => ({ kind: "once" }),
			(_req, i) => (i === 0 ? { calls: [edit("e1")] } : { text: "Done." }),
		);
		await runtime.chat.newSession();
		await runtime.chat.sendMessage("Move the plan to May");
		await app.vault.adapter.write("Projects/Plan.md", "# Plan\n\nShip in May. Confirmed with Ana.\n");
		const outcome = await runtime.tools!.revert(ours(runtime, "e1"));
		expect(outcome).toMatchObject({ ok: false, reason: "changed" });
		expect(await read()).toContain("Confirmed with Ana.");
		await expect(runtime.tools!.revert("nope")).resolves.toEqual({ ok: false, reason: "unavailable" });
	});

	it("'allow for this chat' holds in that chat until the panel forgets the chat", async () => {
		let step = 0;
		const { runtime, asked } = await runtimeWith(
			() => ({ kind: "chat" }),
			() => (step++ % 2 === 0 ? { calls: [call("create_note", { path: `New ${step}.md`, content: "x" })] } : { text: "Made." }),
		);
		await runtime.chat.newSession();
		const id = runtime.chat.sessionId!;
		await runtime.chat.sendMessage("Make a note");
		await runtime.chat.sendMessage("And another");
		expect(asked).toHaveLength(1);
		runtime.tools!.forgetChat(id);
		await runtime.chat.sendMessage("And one more");
		expect(asked).toHaveLength(2);
	});

	it("tools: false sends no tools", async () => {
		const adapterTools: unknown[] = [];
		const { runtime } = await runtimeWith(
			() => ({ kind: "once" }),
			(req) => {
				adapterTools.push(req.tools);
				return { text: "Plain." };
			},
		);
		await runtime.chat.newSession();
		await runtime.chat.sendMessage("Hi", { tools: false });
		await runtime.chat.sendMessage("Hi again");
		expect(adapterTools[0]).toBeUndefined();
		expect((adapterTools[1] as { name: string }[]).map((t) => t.name)).toContain("search_notes");
	});
});
