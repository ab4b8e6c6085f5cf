// @vitest-environment happy-dom
// Edit with Discover in the app, the costs and the endings: the plugin loaded, a note open in a real
// CodeMirror editor with the plugin's extension, the request sent through the chat engine
// (createChatRuntime) to a model server on 127.0.0.1. The engine's own modules are the real ones,
// watched: how often the answer so far is read back into a proposal, and whether each edit's engine
// is closed however the edit ends.
import { EditorSelection, EditorState, type Transaction } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { editorInfoField, type MarkdownFileInfo } from "obsidian";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { clearNotices, createTestApp, flush, loadPlugin, notices, openNote, pressKey, runCommand, TEST_MANIFEST, unloadPlugin } from "../obsidian/harness";
import type { App } from "../obsidian/app";
import { ProviderServer } from "../support/providerServer";
import { ollamaStream } from "../support/providerStreams";
import DiscoverPlugin from "../../src/main";
import { streamHunks } from "../../src/ui/editor/editUi";
import { DEFAULT_SETTINGS } from "../../src/settings/settings";
import { SessionManager } from "../../src/sessions/SessionManager";
import { ObsidianFileStore } from "../../src/wiring/obsidianStore";

const watch = vi.hoisted(() => ({ parses: 0, runtimes: 0, closed: 0 }));

vi.mock("../../src/editor/editPrompt", async (importOriginal) => {
	const real = await importOriginal<typeof import("../../src/editor/editPrompt")>();
	return {
		...real,
		proposalFrom: (answer: string, selection: string): string => {
			watch.parses++;
			return real.proposalFrom(answer, selection);
		},
	};
});

// Each edit's engine, counted as it is made and as it is closed.
vi.mock("../../src/wiring/chatRuntime", async (importOriginal) => {
	const real = await importOriginal<typeof import("../../src/wiring/chatRuntime")>();
	return {
		...real,
		createChatRuntime: async (...args: Parameters<typeof real.createChatRuntime>) => {
			const runtime = await real.createChatRuntime(...args);
			watch.runtimes++;
			return {
				...runtime,
				close: async () => {
					watch.closed++;
					await runtime.close?.();
				},
			};
		},
	};
});

const PLAN = "# Plan\n\nThe quick brown fox.\nIt jumps over the dog.\n\nThe end of it.\n";
const SELECTED = "The quick brown fox.\nIt jumps over the dog.\n\nThe end of it.\n";

let server: ProviderServer;
beforeAll(async () => {
	server = await ProviderServer.start();
});
afterAll(() => server.close());

let view: EditorView | undefined;
let plugin: DiscoverPlugin | undefined;
afterEach(() => {
	view?.destroy();
	if (plugin) unloadPlugin(plugin);
	view = plugin = undefined;
	server.reset();
	document.body.empty();
	clearNotices();
	watch.parses = 0;
	watch.runtimes = 0;
	watch.closed = 0;
});

/** The plugin loaded, Plan.md open with its body selected, and its editor; `transactions` sees every transaction of it. */
async function setup(): Promise<{ app: App; view: EditorView; transactions: Transaction[] }> {
	const app = await createTestApp({ files: { "Notes/Plan.md": PLAN } });
	plugin = (await loadPlugin(DiscoverPlugin, { app, data: { ...DEFAULT_SETTINGS, provider: "ollama", baseUrl: server.url, model: "m" } })).plugin;
	const note = await openNote(app, "Notes/Plan.md");
	note.editor.setValue(PLAN);
	const from = PLAN.indexOf(SELECTED);
	const transactions: Transaction[] = [];
	view = new EditorView({
		state: EditorState.create({
			doc: PLAN,
			selection: EditorSelection.single(from, from + SELECTED.length),
			extensions: [editorInfoField.init(() => note as unknown as MarkdownFileInfo), ...app.workspace.editorExtensions, EditorState.transactionExtender.of((tr) => (transactions.push(tr), null))],
		}),
		parent: document.body.createDiv(),
	});
	await flush();
	return { app, view, transactions };
}

const q = (v: EditorView, selector: string): HTMLElement[] => Array.from(v.dom.querySelectorAll<HTMLElement>(selector));

async function until(check: () => boolean, what: string, ms = 20000): Promise<void> {
	const end = Date.now() + ms;
	while (!check()) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => window.setTimeout(r, 5));
	}
}

function send(app: App, v: EditorView, instruction = "tighten this"): void {
	expect(runCommand(app, `${TEST_MANIFEST.id}:edit-inline`)).toBe(true);
	const input = q(v, ".discover-edit-input")[0] as HTMLInputElement;
	input.value = instruction;
	pressKey(input, "Enter");
}

describe("Edit with Discover, streamed", () => {
	it("reads the answer back into a proposal once per draw, not once per token: 2,000 tokens cost a few dozen parses", async () => {
		// 2,000 tokens: the rewrite, a word at a time, then more lines.
		const words = `${SELECTED.replace("quick", "slow")}${"More words for the end. ".repeat(400)}\n`.match(/[^ ]* ?/g)!.filter((w) => w !== "");
		expect(words.length).toBeGreaterThanOrEqual(2000);
		server.route("POST", "/api/show", { status: 404, body: "{}" });
		server.route("POST", "/api/chat", { headers: { "content-type": "application/x-ndjson" }, body: ollamaStream(words), chunkMin: 2000, chunkMax: 4000, chunkDelayMs: 5 });
		const { app, view: v, transactions } = await setup();
		send(app, v);
		await until(() => q(v, ".discover-edit-hunk button").length > 0, "the review");
		const draws = transactions.filter((tr) => tr.effects.some((e) => e.is(streamHunks))).length;
		expect(draws).toBeGreaterThan(0);
		// Each draw reads the answer once; the finished answer once more.
		expect(watch.parses).toBeLessThanOrEqual(draws + 1);
	});
});

describe("Edit with Discover, however it ends", () => {
	const message = (v: EditorView): string => q(v, ".discover-edit-message")[0]?.textContent ?? "";

	it("closes the edit's engine when the model fails", async () => {
		server.route("POST", "/api/show", { status: 404, body: "{}" });
		server.route("POST", "/api/chat", { status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: "model 'm' not found" }) });
		const { app, view: v } = await setup();
		send(app, v);
		await until(() => (q(v, ".discover-edit-input")[0] as HTMLInputElement).disabled === false && message(v) !== "" && watch.runtimes === 1, "the failure");
		await until(() => watch.closed === 1, "the engine closed", 2000);
		expect(v.state.doc.toString()).toBe(PLAN);
	});

	it("closes the edit's engine when the person stops it", async () => {
		server.route("POST", "/api/show", { status: 404, body: "{}" });
		server.route("POST", "/api/chat", { headers: { "content-type": "application/x-ndjson" }, body: ollamaStream(Array.from({ length: 200 }, () => "slow ")), chunkMin: 20, chunkMax: 40, chunkDelayMs: 50 });
		const { app, view: v } = await setup();
		send(app, v);
		await until(() => q(v, ".discover-edit-hunk.is-streaming").length > 0, "the stream");
		q(v, ".discover-edit-stop")[0]!.click();
		await until(() => (q(v, ".discover-edit-input")[0] as HTMLInputElement).disabled === false, "the prompt back");
		await until(() => watch.closed === 1, "the engine closed", 2000);
		expect(watch.runtimes).toBe(1);
	});

	it("closes the edit's engine when the proposal changes nothing, and when it ends in a review", async () => {
		server.route("POST", "/api/show", { status: 404, body: "{}" });
		server.route("POST", "/api/chat", { headers: { "content-type": "application/x-ndjson" }, body: ollamaStream([SELECTED]) });
		const { app, view: v } = await setup();
		send(app, v);
		await until(() => message(v) === "No change proposed.", "no change");
		await until(() => watch.closed === 1, "the engine closed", 2000);
		server.route("POST", "/api/chat", { headers: { "content-type": "application/x-ndjson" }, body: ollamaStream([SELECTED.replace("quick", "slow")]) });
		send(app, v, "again");
		await until(() => q(v, ".discover-edit-hunk button").length > 0, "the review");
		await until(() => watch.closed === 2, "the second engine closed", 2000);
		expect(watch.runtimes).toBe(2);
	});

	it("an undo after the review ended, then a new decision, saves the review once: the record is replaced with what is decided now", async () => {
		server.route("POST", "/api/show", { status: 404, body: "{}" });
		server.route("POST", "/api/chat", { headers: { "content-type": "application/x-ndjson" }, body: ollamaStream([SELECTED.replace("quick", "slow").replace("The end of it.", "The very end.")]) });
		const { app, view: v, transactions } = await setup();
		send(app, v);
		await until(() => q(v, ".discover-edit-hunk button").length > 0, "the review");
		const sessions = new SessionManager(new ObsidianFileStore(app.vault.adapter, DEFAULT_SETTINGS.sessionsFolder));
		const messages = async (): Promise<string[]> => {
			const [found] = await sessions.list();
			return found === undefined ? [] : (await sessions.load(found.id)).messages.map((m) => `${m.role}: ${m.content}`);
		};
		transactions.length = 0;
		q(v, ".discover-edit-hunk button.mod-cta")[0]!.click();
		const accept = transactions.find((tr) => tr.docChanged)!;
		q(v, ".discover-edit-hunk button").find((b) => b.textContent === "Reject")!.click();
		let saved: string[] = [];
		await until(() => (void messages().then((m) => (saved = m)), saved.length === 3), "the review's record");
		// Ctrl/Cmd+Z: the accept comes back into review; rejected this time, the review ends again.
		v.dispatch({ changes: accept.changes.invert(accept.startState.doc), userEvent: "undo" });
		expect(q(v, ".discover-edit-hunk")).toHaveLength(1);
		q(v, ".discover-edit-hunk button").find((b) => b.textContent === "Reject")!.click();
		expect(v.state.doc.toString()).toBe(PLAN);
		await until(() => (void messages().then((m) => (saved = m)), saved.length !== 3 || saved[2]!.includes("Rejected: change 1")), "the second save");
		await new Promise((r) => window.setTimeout(r, 200));
		saved = await messages();
		expect(saved).toHaveLength(3);
		expect(saved[2]).toBe(["user: My review of the proposed changes:", "- Rejected: change 1, “The quick brown fox.” → “The slow brown fox.”", "- Rejected: change 2, “The end of it.” → “The very end.”"].join("\n"));
	});
	it("Edit with Discover again while a review is pending keeps that review: a notice says to finish it first, and its record is saved when it ends", async () => {
		server.route("POST", "/api/show", { status: 404, body: "{}" });
		server.route("POST", "/api/chat", { headers: { "content-type": "application/x-ndjson" }, body: ollamaStream([SELECTED.replace("quick", "slow").replace("The end of it.", "The very end.")]) });
		const { app, view: v } = await setup();
		send(app, v);
		await until(() => q(v, ".discover-edit-hunk button").length > 0, "the review");
		expect(q(v, ".discover-edit-hunk")).toHaveLength(2);
		// The person selects other text and asks for another edit before deciding.
		v.dispatch({ selection: { anchor: 0, head: 6 } });
		expect(runCommand(app, `${TEST_MANIFEST.id}:edit-inline`)).toBe(true);
		// Nothing they were shown is gone: both changes wait for a decision, the note is as it was.
		expect(q(v, ".discover-edit-hunk")).toHaveLength(2);
		expect(notices()).toEqual(["An edit is still open in this note: accept or reject its changes, or stop it, before starting another."]);
		expect(q(v, ".discover-edit-hunk button")).not.toHaveLength(0);
		expect(v.state.doc.toString()).toBe(PLAN);
		// Its first change's Accept has the focus, to decide from there.
		expect(document.activeElement?.closest(".discover-edit-hunk")).toBe(q(v, ".discover-edit-hunk")[0]);
		q(v, ".discover-edit-hunk button.mod-cta")[0]!.click();
		q(v, ".discover-edit-hunk button").find((b) => b.textContent === "Reject")!.click();
		const sessions = new SessionManager(new ObsidianFileStore(app.vault.adapter, DEFAULT_SETTINGS.sessionsFolder));
		let saved: string[] = [];
		const messages = async (): Promise<string[]> => {
			const [found] = await sessions.list();
			return found === undefined ? [] : (await sessions.load(found.id)).messages.map((m) => `${m.role}: ${m.content}`);
		};
		await until(() => (void messages().then((m) => (saved = m)), saved.length === 3), "the review's record");
		expect(saved[2]).toBe(["user: My review of the proposed changes:", "- Accepted: change 1, “The quick brown fox.” → “The slow brown fox.”", "- Rejected: change 2, “The end of it.” → “The very end.”"].join("\n"));
		// The review over, a new edit opens at once.
		clearNotices();
		expect(runCommand(app, `${TEST_MANIFEST.id}:edit-inline`)).toBe(true);
		expect(notices()).toEqual([]);
		expect((q(v, ".discover-edit-input")[0] as HTMLInputElement).disabled).toBe(false);
	});
	it("a note closed with changes still to decide: the review's record is saved, the changes left as not decided", async () => {
		server.route("POST", "/api/show", { status: 404, body: "{}" });
		server.route("POST", "/api/chat", { headers: { "content-type": "application/x-ndjson" }, body: ollamaStream([SELECTED.replace("quick", "slow").replace("The end of it.", "The very end.")]) });
		const { app, view: v } = await setup();
		send(app, v);
		await until(() => q(v, ".discover-edit-hunk button").length > 0, "the review");
		q(v, ".discover-edit-hunk button.mod-cta")[0]!.click();
		v.destroy();
		view = undefined;
		const sessions = new SessionManager(new ObsidianFileStore(app.vault.adapter, DEFAULT_SETTINGS.sessionsFolder));
		let saved: string[] = [];
		const messages = async (): Promise<string[]> => {
			const [found] = await sessions.list();
			return found === undefined ? [] : (await sessions.load(found.id)).messages.map((m) => `${m.role}: ${m.content}`);
		};
		await until(() => (void messages().then((m) => (saved = m)), saved.length === 3), "the review's record", 5000);
		expect(saved[2]).toBe(["user: My review of the proposed changes:", "- Accepted: change 1, “The quick brown fox.” → “The slow brown fox.”", "- Not decided: change 2, “The end of it.” → “The very end.”"].join("\n"));
	});
});
