// Headless scenarios for the token-window chat engine, run by `npm run test:headless`.
// One line per scenario, then "N passed, N failed"; exit code 1 when any fails.
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
	ChatService,
	CONDENSED_PREFIX,
	MemoryFileStore,
	MemoryVault,
	NodeFileStore,
	PermissionRules,
	SessionManager,
	SUMMARY_INSTRUCTION,
	createVaultTools,
	defaultSourceFitter,
	escapeSourceText,
	estimatePromptTokens,
	safeBudget,
	topCutFitter,
} from "../src/headless.ts";
// The same scriptable stub the unit tests use: records requests, streams in pieces, fails on demand.
import { StubAdapter } from "../tests/support/stubAdapter.ts";
// A model that follows a script of tool calls, and tools that record their runs.
import { ScriptedToolAdapter, recordingTool } from "../tests/support/toolScript.ts";

const SETTINGS = { maxPromptTokens: 2048, reservedResponseTokens: 256, recentMessagesToKeep: 6, minRecentMessagesToKeep: 2, systemPrompt: "Be brief." };
const CAP = safeBudget(SETTINGS.maxPromptTokens - SETTINGS.reservedResponseTokens);

const words = (n, word = "word") => Array.from({ length: n }, () => word).join(" ");

function setup(adapterOpts = {}, store = new MemoryFileStore(), settings = SETTINGS) {
	const adapter = new StubAdapter(adapterOpts);
	const sessions = new SessionManager(store, { onWarning: () => undefined });
	const events = [];
	const chat = new ChatService({ adapter, sessions, settings, onEvent: (e) => events.push(e) });
	return { adapter, sessions, chat, events, store };
}

function check(condition, message) {
	if (!condition) throw new Error(message);
}

/** Every chat prompt fits the cap and ends with its own user message, which appears only there; returns a one-line account. */
function checkPrompts(adapter, cap = CAP) {
	for (const r of adapter.chatRequests) {
		const tokens = estimatePromptTokens(r.messages);
		check(tokens <= cap, `a prompt of ${tokens} estimated tokens exceeds the cap of ${cap}`);
		const last = r.messages[r.messages.length - 1];
		check(last?.role === "user", "the last message is not the user's");
		check(r.messages.filter((m) => m.content === last.content).length === 1, "the user message appears twice");
		check(r.messages.slice(1).every((m) => m.role !== "system"), "a system message after the first");
		check(r.maxTokens <= SETTINGS.reservedResponseTokens && r.contextWindow === SETTINGS.maxPromptTokens, "wrong maxTokens or contextWindow");
	}
	for (const r of adapter.summaryRequests) {
		check(estimatePromptTokens(r.messages) + r.maxTokens <= SETTINGS.maxPromptTokens, "a summary request exceeds the window");
	}
	const largest = Math.max(0, ...adapter.chatRequests.map((r) => estimatePromptTokens(r.messages)));
	return `${adapter.chatRequests.length} prompts, largest ${largest} of ${cap} tokens; ${adapter.summaryRequests.length} summary requests`;
}

const scenarios = {
	async "under budget: no summary, every turn sent"() {
		const { adapter, chat } = setup();
		for (let i = 0; i < 4; i++) await chat.sendMessage(`Question ${i}`);
		check(adapter.summaryRequests.length === 0, "a summary was requested");
		const last = adapter.chatRequests[3];
		check(last.messages.length === 1 + 7 + 1 - 1, `expected system + 7 messages, got ${last.messages.length}`);
		check(last.messages.map((m) => m.content).join("|") === "Be brief.|Question 0|Answer 1.|Question 1|Answer 2.|Question 2|Answer 3.|Question 3", "history not sent whole");
		return checkPrompts(adapter);
	},

	async "over budget: older turns summarized, last N verbatim, no duplicate user message"() {
		const { adapter, chat, events } = setup({ reply: (_req, i) => `Answer ${i}: ${words(80, "detail")}` });
		for (let i = 0; i < 14; i++) await chat.sendMessage(`Question ${i}: ${words(60)}`);
		check(adapter.summaryRequests.length > 0, "nothing was summarized");
		check(adapter.summaryRequests[0].messages[0].content === SUMMARY_INSTRUCTION, "wrong summary instruction");
		check(chat.messages[0].role === "system" && chat.messages[0].summaryOf !== undefined, "no persisted summary at index 0");
		check(events.some((e) => e.type === "compacted"), "no compacted event");
		const last = adapter.chatRequests[adapter.chatRequests.length - 1];
		const transcript = chat.messages.filter((m) => m.role !== "system");
		const verbatim = last.messages.slice(1, -1);
		const tail = transcript.slice(-2 - verbatim.length, -2).map((m) => m.content);
		check(verbatim.length >= SETTINGS.minRecentMessagesToKeep, "fewer recent messages than the minimum");
		check(JSON.stringify(verbatim.map((m) => m.content)) === JSON.stringify(tail), "recent messages not verbatim");
		check(last.messages[0].content.includes(chat.messages[0].content), "the summary is not in the prompt");
		check(transcript.length === 28, "the transcript lost messages");
		return checkPrompts(adapter);
	},

	async "the latest N exceed the cap: window shrinks, then recent messages compress, minimum kept"() {
		// The sixth answer alone is larger than the cap under any estimator, so the next turn must compress it.
		const { adapter, chat } = setup({ reply: (_req, i) => (i === 5 ? words(1700, "huge") : `Answer ${i}: ${words(400, "long")}`) });
		for (let i = 0; i < 6; i++) await chat.sendMessage(`Question ${i}: ${words(30)}`);
		const windows = adapter.chatRequests.map((r) => r.messages.slice(1, -1));
		const shrunk = windows.filter((w) => adapter.summaryRequests.length > 0 && w.length < SETTINGS.recentMessagesToKeep && w.every((m) => !m.content.startsWith(CONDENSED_PREFIX)));
		check(shrunk.length > 0, `the window never shrank (${windows.map((w) => w.length).join(", ")} messages)`);
		check(windows.every((w) => w.length >= SETTINGS.minRecentMessagesToKeep || w === windows[0]), "fewer recent messages than the minimum");
		await chat.sendMessage("And now?");
		const compressed = adapter.chatRequests[6].messages.slice(1, -1);
		check(compressed.length >= SETTINGS.minRecentMessagesToKeep, "fewer recent messages than the minimum");
		check(compressed.some((m) => m.content.startsWith(CONDENSED_PREFIX)), "no recent message was compressed");
		return checkPrompts(adapter);
	},

	async "a large document is trimmed after the messages"() {
		const { adapter, chat, events } = setup();
		await chat.sendMessage("Hello");
		const note = Array.from({ length: 5000 }, (_, i) => `Line ${i} of a long note about budgets.`).join("\n");
		await chat.sendMessage("What does the note say?", { context: note, contextName: "Budgets" });
		const prompt = events.filter((e) => e.type === "prompt").pop();
		check(prompt.context.included === "partial" && prompt.context.fraction > 0 && prompt.context.fraction < 1, "the note was not trimmed");
		const last = adapter.chatRequests[1];
		check(last.messages.length === 4, "messages were dropped for the document");
		check(/⟦SOURCE 1⟧[^\n]*excerpts/.test(last.messages[last.messages.length - 1].content), "the note's heading does not say it holds excerpts");
		check(last.messages[last.messages.length - 1].content.includes("⟦SOURCE 1⟧ Budgets · path: Budgets · excerpts"), "no heading with the note's name");
		check(estimatePromptTokens(last.messages) > CAP * 0.9, "the document did not use the room left");
		return checkPrompts(adapter);
	},

	async "several sources share the budget; a needle near the end of a long note"() {
		const { adapter, chat, events, store } = setup();
		const NEEDLE = "The lighthouse keeper's password is quartz-falcon-42.";
		const filler = Array.from({ length: 4000 }, (_, i) => `Paragraph ${i}: routine notes about tides, boats and the weather.`);
		const long = [...filler.slice(0, 3900), "## Secrets", NEEDLE, ...filler.slice(3900)].join("\n\n");
		const small = "The harbour opens at six.";
		const selection = "tides and boats";
		const sources = [
			{ id: "Harbour/Log.md", name: "Log", text: long },
			{ id: "Harbour/Hours.md", name: "Hours", text: small },
			{ id: "selection", name: "Selection", text: selection, kind: "selection" },
			{ id: "Daily/Today.md", name: "Today", text: "Active note: check the password.", kind: "active" },
		];
		const preview = chat.previewPrompt("What is the lighthouse keeper's password?", { sources });
		const answer = await chat.sendMessage("What is the lighthouse keeper's password?", { sources });
		const fits = answer.sources ?? [];
		check(JSON.stringify(fits) === JSON.stringify(preview.sources), "the preview's fits differ from the send's");
		check(JSON.stringify(events.filter((e) => e.type === "prompt").pop()?.sources) === JSON.stringify(fits), "the prompt event's fits differ");
		check(fits.map((f) => f.id).join("|") === "selection|Harbour/Log.md|Harbour/Hours.md|Daily/Today.md", `sources not each reported once in tier order: ${fits.map((f) => f.id).join("|")}`);
		const byId = Object.fromEntries(fits.map((f) => [f.id, f]));
		check(byId["Harbour/Log.md"].fit === "excerpts" && byId["Harbour/Log.md"].sentTokens < byId["Harbour/Log.md"].totalTokens, "the long note was not fitted");
		// The long note is cut, yet the small active note goes whole: a source that fits in an equal
		// share of the room is never left out for a larger one (the minimum share).
		check(byId["Daily/Today.md"].fit === "whole", `the small active note was ${byId["Daily/Today.md"].fit}, not whole, beside a long note`);
		const sent = adapter.chatRequests[0].messages;
		// This turn's sources ride with the latest message.
		const system = sent[sent.length - 1].content;
		check(byId.selection.fit === "whole" && system.includes(escapeSourceText(selection)), "the selection was not sent whole");
		check(byId["Harbour/Hours.md"].fit === "whole" && system.includes(small), "the small note was not sent whole beside the long one");
		// The needle can only be found by relevance fitting (src/context's fitSource); the top cut sends
		// the start of the note. Checked once the default fitter is no longer the top cut.
		const relevance = defaultSourceFitter !== topCutFitter;
		if (relevance) check(system.includes(NEEDLE), "the needle passage did not reach the model");
		const reloaded = await new SessionManager(store, { onWarning: () => undefined }).load(chat.sessionId);
		check(JSON.stringify(reloaded.messages[1].sources) === JSON.stringify(fits), "the answer's sources did not survive a reload");
		return `${checkPrompts(adapter)}; log ${byId["Harbour/Log.md"].sentTokens}/${byId["Harbour/Log.md"].totalTokens} tokens; needle ${relevance ? (system.includes(NEEDLE) ? "sent" : "missing") : "not checked (top-cut fitter)"}`;
	},

	async "summarizer failure: naive fallback, still within the cap"() {
		const { adapter, chat, events } = setup({ failSummaries: true, reply: (_req, i) => `Answer ${i}: ${words(80, "detail")}` });
		for (let i = 0; i < 14; i++) await chat.sendMessage(`Question ${i}: ${words(60)}`);
		check(adapter.summaryRequests.length > 0, "the summarizer was never tried");
		check(chat.messages[0].role === "system" && chat.messages[0].content.includes("summarizer was unavailable"), "no fallback summary");
		check(events.some((e) => e.type === "warning"), "no warning about the fallback");
		return checkPrompts(adapter);
	},

	async "Stop mid-stream: the partial answer is kept and persisted"() {
		const { chat, sessions } = setup({ hangAfter: "The beginning of an answer" });
		let streamed = "";
		const answer = await chat.sendMessage("Explain", {
			onToken: (d) => {
				streamed += d;
				if (streamed.length >= 10) chat.cancel();
			},
		});
		check(answer.cancelled === true && answer.content.length >= 10, "the partial answer was not kept");
		const saved = await sessions.load(chat.sessionId);
		const last = saved.messages[saved.messages.length - 1];
		check(last.role === "assistant" && last.cancelled === true && last.content === answer.content, "the partial answer was not persisted");
		return `kept "${answer.content}"`;
	},

	async "provider overflow: one smaller retry"() {
		const { adapter, chat } = setup({ overflowTimes: 1 });
		const note = Array.from({ length: 3000 }, (_, i) => `Line ${i}.`).join("\n");
		const answer = await chat.sendMessage("Summarize", { context: note });
		check(adapter.chatRequests.length === 2, `expected 2 chat requests, got ${adapter.chatRequests.length}`);
		check(estimatePromptTokens(adapter.chatRequests[1].messages) < estimatePromptTokens(adapter.chatRequests[0].messages), "the retry was not smaller");
		check(answer.content === "Answer 1.", "no answer after the retry");
		const twice = setup({ overflowTimes: 2 });
		const err = await twice.chat.sendMessage("Hi").catch((e) => e);
		check(err?.kind === "context_overflow", "a second overflow did not reject with its kind");
		check(twice.chat.messages.length === 1 && twice.chat.messages[0].content === "Hi", "the user message was not kept");
		return `retry ${estimatePromptTokens(adapter.chatRequests[1].messages)} < first ${estimatePromptTokens(adapter.chatRequests[0].messages)} tokens`;
	},

	async "a message too long for the window: clear error, nothing sent or lost"() {
		const { adapter, chat } = setup();
		const text = words(3000);
		const err = await chat.sendMessage(text).catch((e) => e);
		check(err?.code === "message_too_long" && err.text === text, "no clear error carrying the text");
		check(/about [\d,]+ tokens; the most this model can take is [\d,]+/.test(err.message), `sizes not named: ${err.message}`);
		check(adapter.requests.length === 0 && chat.messages.length === 0, "something was sent or saved");
		return err.message.split(";")[0];
	},

	async "reload: same transcript, same summary, same next prompt"() {
		const dir = await mkdtemp(join(tmpdir(), "discover-reload-"));
		try {
			const reply = (_req, i) => `Answer ${i}: ${words(80, "detail")}`;
			const first = setup({ reply }, new NodeFileStore(join(dir, "a")));
			for (let i = 0; i < 12; i++) await first.chat.sendMessage(`Question ${i}: ${words(60)}`);
			await cp(join(dir, "a"), join(dir, "b"), { recursive: true });
			const second = setup({ reply }, new NodeFileStore(join(dir, "b")));
			await second.chat.loadSession(first.chat.sessionId);
			check(JSON.stringify(second.chat.messages) === JSON.stringify(first.chat.messages), "the transcript or summary differs after reload");
			check(second.chat.messages[0].role === "system", "no summary after reload");
			// The next turn, live and reloaded: the same requests (summaries and prompt).
			const before = first.adapter.requests.length;
			await first.chat.sendMessage("Next?", { context: "Note" });
			await second.chat.sendMessage("Next?", { context: "Note" });
			const strip = (rs) => JSON.stringify(rs.map((r) => [r.purpose, r.messages, r.maxTokens, r.contextWindow]));
			check(strip(first.adapter.requests.slice(before)) === strip(second.adapter.requests), "the reloaded session sent a different prompt");
			return `${first.chat.messages.length} messages, summary covers up to ${first.chat.messages.findIndex((m) => m.id === first.chat.messages[0].summaryOf)}`;
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	},

	async "tools: search, read (large, fitted), a declined write, then an answer; saved whole and reloaded to the same next prompt"() {
		const dir = await mkdtemp(join(tmpdir(), "discover-tools-"));
		try {
			const note = Array.from({ length: 120 }, (_, i) => `## Part ${i}\n${words(40, i % 9 === 4 ? "budget" : "filler")}`).join("\n\n");
			const tools = [
				recordingTool("search_notes", "read", () => "Projects/Plan.md: the plan, with its budget"),
				recordingTool("read_note", "read", () => note),
				recordingTool("edit_note", "write", () => "edited"),
			];
			const script = (_req, i) =>
				[
					{ text: "Searching.", calls: [{ id: "c1", name: "search_notes", arguments: { query: "budget" } }] },
					{ text: "", calls: [{ id: "c2", name: "read_note", arguments: { path: "Projects/Plan.md" } }, { id: "c3", name: "edit_note", arguments: { path: "Projects/Plan.md", append: "x" } }] },
				][i] ?? { text: "The budget is in part 4." };
			const adapter = new ScriptedToolAdapter(script);
			const sessions = new SessionManager(new NodeFileStore(join(dir, "a")), { onWarning: () => undefined });
			const events = [];
			const chat = new ChatService({ adapter, sessions, settings: SETTINGS, tools, onEvent: (e) => events.push(e) });
			const answer = await chat.sendMessage("Where is the budget?");
			check(answer.content === "The budget is in part 4.", `unexpected answer: ${answer.content}`);
			check(chat.messages.map((m) => m.role).join(",") === "user,assistant,tool,assistant,tool,tool,assistant", `unexpected transcript: ${chat.messages.map((m) => m.role).join(",")}`);
			check(tools[2].runs.length === 0, "the write tool ran without permission");
			check(chat.messages[5].content === "The person declined this call.", "the denial was not reported to the model");
			check(chat.messages[4].content.length < note.length / 2 && chat.messages[4].content.includes("budget"), "the large read was not fitted by relevance");
			for (const r of adapter.chatRequests) check(estimatePromptTokens(r.messages) <= CAP, "a prompt exceeds the cap");
			const states = events.filter((e) => e.type === "tool").map((e) => e.card.state);
			check(["input", "waiting", "running", "done", "failed"].every((s) => states.includes(s)), `missing card states: ${[...new Set(states)].join(",")}`);
			await chat.flush();
			await cp(join(dir, "a"), join(dir, "b"), { recursive: true });
			const again = new ScriptedToolAdapter(() => ({ text: "x" }));
			const reloaded = new ChatService({ adapter: again, sessions: new SessionManager(new NodeFileStore(join(dir, "b")), { onWarning: () => undefined }), settings: SETTINGS, tools });
			await reloaded.loadSession(chat.sessionId);
			check(JSON.stringify(reloaded.messages) === JSON.stringify(chat.messages), "the loop differs after reload");
			const live = new ScriptedToolAdapter(() => ({ text: "x" }));
			chat.setAdapter(live);
			await chat.sendMessage("Thanks");
			await reloaded.sendMessage("Thanks");
			check(JSON.stringify(live.chatRequests[0].messages) === JSON.stringify(again.chatRequests[0].messages), "the reloaded chat sent a different prompt");
			return `${adapter.chatRequests.length} model requests, ${tools[0].runs.length + tools[1].runs.length} tools run, 1 declined; largest prompt ${Math.max(...adapter.chatRequests.map((r) => estimatePromptTokens(r.messages)))} of ${CAP} tokens`;
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	},

	async "vault tools over a vault: search, read, a write denied with a reason, the same write allowed and then reverted"() {
		const plan = "# Plan\n\nWe ship in May.\n";
		const vault = new MemoryVault({ "Projects/Plan.md": plan, "Discover/Chats/log.md": "We ship chats." }, { configDir: ".obsidian" });
		const { tools, changes } = createVaultTools(vault, { chatsFolder: () => "Discover/Chats", excludedFolders: () => [] });
		const edit = { name: "edit_note", arguments: { path: "Projects/Plan.md", mode: "replace", old_text: "in May", new_text: "in June" } };
		const script = [
			{ text: "Searching.", calls: [{ id: "s1", name: "search_notes", arguments: { query: "ship" } }] },
			{ calls: [{ id: "r1", name: "read_note", arguments: { path: "Projects/Plan.md" } }] },
			{ calls: [{ id: "e1", ...edit }] },
			{ calls: [{ id: "e2", ...edit }] },
		];
		const adapter = new ScriptedToolAdapter((_req, i) => script[i] ?? { text: "Moved to June." });
		// The person, as the panel's permission card would be: asked for writes only, with the diff.
		const asked = [];
		const decisions = [{ kind: "deny", reason: "check with the team first" }, { kind: "once" }];
		// Calls go by the engine's own ids; the server's ("e1") is kept beside each as serverId.
		const ask = (call, _tool, preview) => (asked.push({ call: call.serverId, diff: preview?.diff ?? "" }), Promise.resolve(decisions.shift() ?? { kind: "deny" }));
		const rules = new PermissionRules({ readAllowed: () => true, alwaysRules: () => [], saveAlwaysRules: () => Promise.resolve() });
		const chat = new ChatService({ adapter, sessions: new SessionManager(new MemoryFileStore(), { onWarning: () => undefined }), settings: SETTINGS, tools, approve: rules.approverFor("chat", ask) });
		const answer = await chat.sendMessage("Move the plan to June.");
		check(answer.content === "Moved to June.", `unexpected answer: ${answer.content}`);
		const results = chat.messages.filter((m) => m.role === "tool").map((m) => m.content);
		check(results.length === 4, `expected 4 tool results, got ${results.length}`);
		check(results[0].includes("Projects/Plan.md") && !results[0].includes("Discover/Chats"), "search reached the chats folder or missed the note");
		check(results[1].includes("We ship in May."), "read_note did not return the note");
		check(results[2] === "The person declined: check with the team first", `the denial's reason was not sent: ${results[2]}`);
		check(asked.length === 2 && asked.map((a) => a.call).join() === "e1,e2", `the person was not asked exactly for the two writes: ${asked.map((a) => a.call).join()}`);
		check(asked[0].diff.includes("-We ship in May.") && asked[0].diff.includes("+We ship in June."), "the permission request carried no diff");
		check(vault.files.get("Projects/Plan.md")?.text === "# Plan\n\nWe ship in June.\n", "the allowed write did not change the note");
		const e2 = chat.messages.flatMap((m) => m.toolCalls ?? []).find((c) => c.serverId === "e2");
		check(e2 !== undefined && e2.id !== "e2" && changes.get("e2") === undefined, "the write was filed under the server's id, not the engine's");
		await changes.revert(e2.id);
		check(vault.files.get("Projects/Plan.md")?.text === plan, "Revert did not restore the note");
		for (const r of adapter.chatRequests) check(estimatePromptTokens(r.messages) <= CAP, "a prompt exceeds the cap");
		return `${adapter.chatRequests.length} model requests, 2 reads, 1 write declined with its reason, 1 written and reverted`;
	},
};

async function main() {
	let passed = 0;
	let failed = 0;
	for (const [name, run] of Object.entries(scenarios)) {
		try {
			const detail = await run();
			passed++;
			console.log(`ok   ${name}${typeof detail === "string" ? ` (${detail})` : ""}`);
		} catch (err) {
			failed++;
			console.log(`FAIL ${name}: ${err instanceof Error ? err.message : String(err)}`);
		}
	}
	console.log(`${passed} passed, ${failed} failed`);
	if (failed > 0) process.exitCode = 1;
}

void main();
