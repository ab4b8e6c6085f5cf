// @vitest-environment happy-dom
// What a new chat shows: the model and where it runs, example prompts that send on click, the `/`
// commands, and how much of the note fits.
import { afterEach, describe, expect, it } from "vitest";
import { flush } from "../obsidian/harness";
import { until } from "../support/chatHarness";
import { SLASH_COMMANDS } from "../../src/ui/panel/slashCommands";
import { mountView, type Mounted } from "./mountView";
import { sentContext } from "./fakes";

const mounted: Mounted[] = [];
afterEach(async () => {
	for (const m of mounted.splice(0)) m.leaf.detach();
	await flush();
	document.body.empty();
});

async function mount(opts: Parameters<typeof mountView>[0] = {}): Promise<Mounted> {
	const m = await mountView(opts);
	mounted.push(m);
	await flush();
	return m;
}

const empty = (m: Mounted) => m.q(".discover-chat-empty");
const prompts = (m: Mounted) => Array.from(m.root.querySelectorAll<HTMLButtonElement>(".discover-chat-empty-prompt"));

describe("the empty chat", () => {
	it("shows the model and where it runs: this computer for localhost, else the host", async () => {
		const local = await mount();
		expect(local.q(".discover-chat-empty-model").textContent).toBe("llama3.2 · Ollama on this computer");
		expect(local.q(".discover-chat-model-name").textContent).toBe("llama3.2");
		local.leaf.detach();

		const remote = await mount({ settings: { provider: "openai", baseUrl: "https://gpu.example.org/v1", model: "qwen3" } });
		expect(remote.q(".discover-chat-empty-model").textContent).toBe("qwen3 · OpenAI-compatible server at gpu.example.org");
	});

	it("says no model is chosen yet when none is", async () => {
		const m = await mount({ settings: { model: "" } });
		expect(m.q(".discover-chat-empty-model-name").textContent).toBe("No model chosen yet");
		expect(m.q(".discover-chat-model-name").textContent).toBe("Choose a model");
	});

	it("offers prompts about the active note by name; clicking one sends it with the note", async () => {
		const m = await mount();
		expect(prompts(m).map((b) => b.textContent)).toEqual(["Summarize “Alpha”", "List the open questions in “Alpha”", "What should I read after “Alpha”?"]);
		prompts(m)[1]!.click();
		await until(() => m.chat.sent.length === 1, "the prompt to be sent");
		expect(m.chat.sent[0]!.text).toBe("List the open questions in “Alpha”");
		expect(sentContext(m.chat.sent[0]!.opts)).toContain("Alpha is the first note.");
		expect(m.chat.sent[0]!.opts.includeHistory).toBe(true);
		// The chat is no longer empty: the welcome makes room for the conversation.
		expect(empty(m).hasClass("discover-chat-hidden")).toBe(true);
		m.chat.token("Open questions: none.");
		m.chat.finish();
		await flush();
		expect(empty(m).hasClass("discover-chat-hidden")).toBe(true);
		expect(m.input().value).toBe("");
	});

	it("offers general prompts when no note is open, and says how to add one", async () => {
		const m = await mount({ open: null });
		expect(prompts(m).map((b) => b.textContent)).toEqual(["What can you help me with?", "Suggest a way to organize my notes", "What should I read next?"]);
		expect(m.q(".discover-chat-empty-fit").textContent).toBe("Open a note to ask about it.");
		prompts(m)[0]!.click();
		await until(() => m.chat.sent.length === 1, "the prompt to be sent");
		expect(m.chat.sent[0]!.text).toBe("What can you help me with?");
		expect(sentContext(m.chat.sent[0]!.opts)).toBeUndefined();
	});

	it("says how much of the note fits, from the engine's preview, and follows the note's toggle", async () => {
		const m = await mount();
		await until(() => m.q(".discover-chat-empty-fit").textContent === "All of “Alpha” fits.", "the fit");

		m.q<HTMLButtonElement>(".discover-chat-context-chip").click();
		await flush();
		expect(m.q(".discover-chat-empty-fit").textContent).toBe("“Alpha” is not included. Turn it on below to ask about it.");
		// Without the note, the prompts do not pretend to be about it.
		expect(prompts(m)[0]!.textContent).toBe("What can you help me with?");
	});

	it("shows only part of a long note fitting, as a share", async () => {
		const long = "# Long\n\n" + "A sentence about the long note that goes on. ".repeat(3000);
		const m = await mount({ files: { "Notes/Long.md": long }, open: "Notes/Long.md" });
		await until(() => /^Excerpts of “Long” fit \(\d+%\)/.test(m.q(".discover-chat-empty-fit").textContent ?? ""), "a partial fit");
		expect(m.q(".discover-chat-empty-fit").hasClass("discover-chat-empty-cut")).toBe(true);
	});

	it("lists the / commands; clicking one runs it", async () => {
		const m = await mount();
		const commands = Array.from(m.root.querySelectorAll<HTMLButtonElement>(".discover-chat-empty-command"));
		expect(commands.map((c) => c.textContent)).toEqual(SLASH_COMMANDS.map((c) => `/${c.name}`));
		expect(commands.map((c) => c.getAttribute("aria-label"))).toEqual(SLASH_COMMANDS.map((c) => c.description));
		commands[0]!.click();
		await until(() => m.chat.sent.length === 1, "the command to be sent");
		expect(m.chat.sent[0]!.text).toBe(SLASH_COMMANDS[0]!.prompt);
		expect(m.chat.sent[0]!.opts.includeHistory).toBe(false);
	});

	it("is hidden for a chat with messages and back for a new chat", async () => {
		const m = await mount({
			before: (w) => {
				const s = w.sessions.add("Earlier", [{ id: "u1", role: "user", content: "Hello", createdAt: "2026-01-01T00:00:00.000Z" }]);
				w.host.settings.activeSessionId = s.id;
			},
		});
		await until(() => m.texts().length === 1, "the saved chat");
		expect(empty(m).hasClass("discover-chat-hidden")).toBe(true);
		m.q<HTMLButtonElement>('[aria-label="New chat"]').click();
		await until(() => m.texts().length === 0, "a new chat");
		expect(empty(m).hasClass("discover-chat-hidden")).toBe(false);
	});
});
