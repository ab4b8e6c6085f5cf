// @vitest-environment happy-dom
// Sources in the panel: the @ / [[ suggester, the chips with their fits, drops, what a send carries,
// the sources kept with the chat, and the Sources line under answers.
import { afterEach, describe, expect, it } from "vitest";
import { deleteFromExplorer, flush, pressKey, typeInto } from "../obsidian/harness";
import type { ChatMessage } from "../../src/core/types";
import type { SourceRefStore, VaultSearchPort } from "../../src/ui/ports";
import { until } from "../support/chatHarness";
import { message } from "./fakes";
import { mountView, NOTE_TEXT, type Mounted } from "./mountView";

let mounted: Mounted | undefined;
afterEach(async () => {
	mounted?.leaf.detach();
	await flush();
	document.body.empty();
	mounted = undefined;
});

const FILES = {
	"Notes/Alpha.md": NOTE_TEXT,
	"Notes/Beta.md": "# Beta\n\nBeta text.\n",
	"Projects/Roadmap.md": "---\naliases: [Plan for 2025]\ntags: [work]\n---\n# Roadmap\n\nShip it.\n",
	"Projects/Deep/Budget.md": "# Budget\n\n#work #money\n\nNumbers.\n",
	"Journal.md": "Dear diary.\n",
};

function memoryStore(): SourceRefStore & { data: Map<string, unknown[]> } {
	const data = new Map<string, unknown[]>();
	return {
		data,
		load: (id) => Promise.resolve(data.get(id) ?? []),
		save: (id, refs) => {
			data.set(id, structuredClone(refs));
			return Promise.resolve();
		},
	};
}

async function setup(opts: { vault?: VaultSearchPort; store?: SourceRefStore; files?: Record<string, string> } = {}): Promise<Mounted> {
	const store = opts.store ?? memoryStore();
	mounted = await mountView({
		files: opts.files ?? FILES,
		before: (w) => {
			(w.host as { vaultSearch?: VaultSearchPort }).vaultSearch = opts.vault ?? { enabled: true, search: () => [] };
			const inner = w.factory;
			w.factory = async (h, onEvent) => Object.assign(await inner(h, onEvent), { sourceRefs: store });
		},
	});
	// The metadata cache is filled after the files are created, as in Obsidian.
	await flush();
	return mounted;
}

const options = (m: Mounted): HTMLElement[] => Array.from(m.root.querySelectorAll<HTMLElement>(".discover-chat-source-option"));
const optionTexts = (m: Mounted): string[] => options(m).map((o) => o.textContent ?? "");
const chips = (m: Mounted): HTMLElement[] => Array.from(m.root.querySelectorAll<HTMLElement>(".discover-chat-source-chip"));
const chipTexts = (m: Mounted): string[] => chips(m).map((c) => c.querySelector(".discover-chat-source-chip-name")?.textContent ?? "");

async function pick(m: Mounted, typed: string, label: string): Promise<void> {
	typeInto(m.input(), typed);
	const i = options(m).findIndex((o) => o.querySelector(".discover-chat-source-option-name")?.textContent === label);
	expect(i, `“${label}” among ${JSON.stringify(optionTexts(m))}`).toBeGreaterThanOrEqual(0);
	for (let k = 0; k < i; k++) pressKey(m.input(), "ArrowDown");
	pressKey(m.input(), "Enter");
	await flush();
}

describe("the @ and [[ suggester", () => {
	it("offers notes by name, with their folder, and picks with the keyboard; the mention leaves the input", async () => {
		const m = await setup();
		typeInto(m.input(), "What about @bet");
		expect(optionTexts(m)[0]).toBe("BetaNotes/");
		expect(m.input().getAttribute("aria-activedescendant")).toBe(options(m)[0]!.id);
		pressKey(m.input(), "Enter");
		await flush();
		expect(m.chat.sent).toHaveLength(0);
		expect(m.input().value).toBe("What about ");
		expect(chipTexts(m)).toEqual(["Beta"]);
		expect(m.q(".discover-chat-source-menu").hasClass("discover-chat-hidden")).toBe(true);
	});

	it("finds a note by its alias, and [[ opens the same list", async () => {
		const m = await setup();
		typeInto(m.input(), "[[plan for");
		expect(optionTexts(m)[0]).toBe("Plan for 2025Alias of Roadmap");
		await pick(m, "[[plan for", "Plan for 2025");
		expect(chipTexts(m)).toEqual(["Roadmap"]);
		expect(m.input().value).toBe("");
	});

	it("offers folders with how many notes they add, and tags with how many notes carry them", async () => {
		const m = await setup();
		typeInto(m.input(), "@proj/");
		expect(optionTexts(m)).toContain("Projects/2 notes");
		typeInto(m.input(), "@#wor");
		expect(optionTexts(m)).toEqual(["#work2 notes"]);
	});

	it("never offers Discover's own chats and agents folders, nor what is in them; each row has its kind's icon", async () => {
		// "Discover/" holds only Discover's own folders: it is not offered either.
		const m = await setup({ files: { ...FILES, "Discover/Agents/Default.md": "---\nname: Default\n---\n", "Discover/Chats/Notes about Discover.md": "x" } });
		m.host.settings.sessionsFolder = "Discover/Chats";
		m.host.settings.agentsFolder = "Discover/Agents";
		typeInto(m.input(), "@d");
		const texts = optionTexts(m);
		expect(texts.length).toBeGreaterThan(0);
		expect(texts.filter((t) => t.includes("Discover") || t.startsWith("Default"))).toEqual([]);
		typeInto(m.input(), "@");
		const kinds = new Set(options(m).map((o) => [...o.classList].find((c) => /^discover-chat-source-option-(note|folder|tag|vault)$/.test(c))));
		expect([...kinds].sort()).toEqual(["discover-chat-source-option-folder", "discover-chat-source-option-note", "discover-chat-source-option-tag", "discover-chat-source-option-vault"]);
		for (const o of options(m)) expect(o.querySelector(".discover-chat-source-option-icon")?.childElementCount).toBe(1);
	});

	it("the pointer moves the one highlight: never two rows highlighted at once", async () => {
		const m = await setup();
		typeInto(m.input(), "@");
		const rows = options(m);
		expect(rows.length).toBeGreaterThan(2);
		rows[2]!.dispatchEvent(new MouseEvent("mousemove", { bubbles: true }));
		expect(options(m).filter((o) => o.hasClass("is-selected")).map((o) => options(m).indexOf(o))).toEqual([2]);
		expect(m.input().getAttribute("aria-activedescendant")).toBe(rows[2]!.id);
		pressKey(m.input(), "ArrowDown");
		expect(options(m).filter((o) => o.hasClass("is-selected")).map((o) => options(m).indexOf(o))).toEqual([3]);
	});

	it("offers @vault only while vault search is on, and Escape closes the list", async () => {
		const m = await setup({ vault: { enabled: false, search: () => [] } });
		typeInto(m.input(), "@vau");
		expect(optionTexts(m).some((t) => t.startsWith("@vault"))).toBe(false);
		mounted?.leaf.detach();
		const on = await setup();
		typeInto(on.input(), "@vau");
		expect(optionTexts(on)[0]).toMatch(/^@vault/);
		pressKey(on.input(), "Escape");
		expect(options(on)).toHaveLength(0);
		pressKey(on.input(), "Enter");
		await flush();
		// Closed, Enter sends the text as written.
		expect(on.chat.sent.map((s) => s.text)).toEqual(["@vau"]);
	});
});

describe("source chips", () => {
	it("show how much of each source fits, from the preview: whole, excerpts with a share, not included", async () => {
		const m = await setup({ files: { ...FILES, "Long.md": "word ".repeat(40_000) } });
		await pick(m, "@beta", "Beta");
		await pick(m, "@long", "Long");
		await until(() => chips(m)[1]?.querySelector(".discover-chat-source-chip-fit") !== null, "the chips' fits");
		const fits = chips(m).map((c) => c.querySelector(".discover-chat-source-chip-fit")?.textContent);
		expect(fits[0]).toBe("Whole");
		expect(fits[1]).toMatch(/^Excerpts, \d{1,2}%$/);
		expect(chips(m)[1]!.hasClass("is-cut")).toBe(true);
		// The chips' notes went into the preview as added notes.
		const last = m.chat.previews[m.chat.previews.length - 1]!;
		expect(last.sources.filter((s) => s.kind === "note").map((s) => s.id)).toEqual(["Notes/Beta.md", "Long.md"]);
	});

	it("a folder chip adds its notes and sums their fits; a chip is removed with its × button", async () => {
		const m = await setup();
		await pick(m, "@proj/", "Projects/");
		await until(() => chips(m)[0]?.querySelector(".discover-chat-source-chip-fit")?.textContent !== "2 notes", "the folder's fit");
		expect(chips(m)[0]!.querySelector(".discover-chat-source-chip-fit")?.textContent).toBe("2 notes · Whole");
		const remove = chips(m)[0]!.querySelector<HTMLButtonElement>(".discover-chat-source-chip-remove")!;
		expect(remove.tagName).toBe("BUTTON");
		expect(remove.getAttribute("aria-label")).toBe("Remove Projects/");
		remove.click();
		await flush();
		expect(chips(m)).toHaveLength(0);
		typeInto(m.input(), "hello");
		pressKey(m.input(), "Enter");
		await flush();
		expect((m.chat.sent[0]!.opts.sources ?? []).some((s) => s.kind === "note")).toBe(false);
	});

	it("clicking a note's chip opens the note", async () => {
		const m = await setup();
		await pick(m, "@journal", "Journal");
		chips(m)[0]!.querySelector<HTMLButtonElement>(".discover-chat-source-chip-open")!.click();
		await flush();
		expect(m.app.workspace.getActiveFile()?.path).toBe("Journal.md");
	});
});

function drop(target: HTMLElement, data: Record<string, string>): DragEvent {
	const transfer = new DataTransfer();
	for (const [type, value] of Object.entries(data)) transfer.setData(type, value);
	// happy-dom's DragEvent drops `dataTransfer` from its init; browsers keep it.
	const dragEvent = (type: string): DragEvent => {
		const event = new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer });
		if (event.dataTransfer !== transfer) Object.defineProperty(event, "dataTransfer", { value: transfer });
		return event;
	};
	target.dispatchEvent(dragEvent("dragover"));
	const event = dragEvent("drop");
	target.dispatchEvent(event);
	return event;
}

describe("dropping notes on the panel", () => {
	it("adds a note dragged from the file explorer (its obsidian:// URI) and a dragged link", async () => {
		const m = await setup();
		const event = drop(m.input(), { "text/plain": "obsidian://open?vault=Test%20vault&file=Notes%2FBeta.md" });
		expect(event.defaultPrevented).toBe(true);
		drop(m.root, { "text/plain": "[[Journal]]" });
		await flush();
		expect(chipTexts(m)).toEqual(["Beta", "Journal"]);
	});

	it("adds a dragged folder, and ignores text that names no note", async () => {
		const m = await setup();
		drop(m.root, { "text/plain": "Projects" });
		const plain = drop(m.root, { "text/plain": "just some words" });
		await flush();
		expect(plain.defaultPrevented).toBe(false);
		expect(chipTexts(m)).toEqual(["Projects/"]);
	});
});

describe("what a send carries", () => {
	it("added notes go as kind note, the active note as kind active, @vault's notes as retrieved", async () => {
		const searched: string[] = [];
		const vault: VaultSearchPort = {
			enabled: true,
			search: (query) => {
				searched.push(query);
				return [
					{ id: "Journal.md", name: "Journal", score: 3, text: "Dear diary." },
					{ id: "Notes/Beta.md", name: "Beta", score: 2, text: "Beta text." },
				];
			},
		};
		const m = await setup({ vault });
		await pick(m, "@beta", "Beta");
		await pick(m, "@vau", "@vault");
		typeInto(m.input(), "What did I write?");
		pressKey(m.input(), "Enter");
		await flush();
		const sources = m.chat.sent[0]!.opts.sources ?? [];
		expect(sources.map((s) => [s.id, s.kind])).toEqual([
			["Notes/Alpha.md", "active"],
			["Notes/Beta.md", "note"],
			// Beta is already there as an added note: only Journal comes from the vault.
			["Journal.md", "retrieved"],
		]);
		expect(sources[2]!.text).toBe("Dear diary.\n");
		expect(searched).toEqual(["What did I write?"]);
	});

	it("the sources stay with the chat: saved once it has an id, shown again when it is reopened, none in a new chat", async () => {
		const store = memoryStore();
		const m = await setup({ store });
		await pick(m, "@beta", "Beta");
		typeInto(m.input(), "First question");
		pressKey(m.input(), "Enter");
		await flush();
		const id = m.chat.sessionId!;
		expect(store.data.get(id)).toEqual([{ type: "note", path: "Notes/Beta.md" }]);
		m.chat.finish();
		await flush();
		await m.view.startNewChat();
		await flush();
		expect(chips(m)).toHaveLength(0);
		await m.view.openSession(id);
		await flush();
		expect(chipTexts(m)).toEqual(["Beta"]);
	});
});

describe("the Sources line under an answer", () => {
	function answerWithSources(extra: Partial<ChatMessage> = {}): ChatMessage {
		const start = NOTE_TEXT.indexOf("Alpha is");
		return message("assistant", "It is the first note.", {
			createdAt: new Date(Date.now() + 1000).toISOString(),
			sources: [
				{ id: "Notes/Alpha.md", name: "Alpha", totalTokens: 9876, sentTokens: 1234, fit: "excerpts", passages: [{ start, end: start + "Alpha is the first note.".length, headingPath: "Alpha" }] },
				{ id: "Notes/Beta.md", name: "Beta", totalTokens: 6, sentTokens: 6, fit: "whole", passages: [{ start: 0, end: 20, headingPath: "" }] },
			],
			...extra,
		});
	}

	async function withAnswer(answer: ChatMessage): Promise<Mounted> {
		const m = await setup();
		m.chat.messages.push(message("user", "What is Alpha?"), answer);
		await m.view.startNewChat();
		const session = m.sessions.add("Alpha chat", [message("user", "What is Alpha?"), answer]);
		await m.view.openSession(session.id);
		await flush();
		return m;
	}

	it("lists each source with its fit and tokens; expanding shows the passages read from the note", async () => {
		const m = await withAnswer(answerWithSources());
		const line = m.q(".discover-chat-sources-line");
		expect(line.querySelector(".discover-chat-sources-names")?.textContent).toBe("Alpha, Beta");
		const toggle = line.querySelector<HTMLButtonElement>(".discover-chat-sources-toggle")!;
		expect(toggle.getAttribute("aria-expanded")).toBe("false");
		toggle.click();
		await flush();
		expect(toggle.getAttribute("aria-expanded")).toBe("true");
		const rows = Array.from(line.querySelectorAll(".discover-chat-source-row"));
		expect(rows[0]!.querySelector(".discover-chat-source-fit")?.textContent).toBe("Excerpts, 12%");
		expect(rows[0]!.querySelector(".discover-chat-source-tokens")?.textContent).toBe("1,234 of 9,876 tokens");
		expect(rows[0]!.querySelector(".discover-chat-source-text")?.textContent).toBe("Alpha is the first note.");
		expect(rows[0]!.querySelector(".discover-chat-source-heading")?.textContent).toBe("Alpha");
		expect(rows[1]!.querySelector(".discover-chat-source-text")?.textContent).toBe("# Beta\n\nBeta text.\n");
		rows[1]!.querySelector<HTMLAnchorElement>(".discover-chat-source-link")!.click();
		await flush();
		expect(m.app.workspace.getActiveFile()?.path).toBe("Notes/Beta.md");
	});

	it("a note changed since the answer, or gone, says so instead of showing other text", async () => {
		const m = await withAnswer(answerWithSources({ createdAt: new Date(Date.now() - 60_000).toISOString() }));
		const beta = m.app.vault.getFileByPath("Notes/Beta.md")!;
		await m.app.vault.modify(beta, "# Beta\n\nRewritten since.\n");
		await deleteFromExplorer(m.app, "Notes/Alpha.md");
		m.q<HTMLButtonElement>(".discover-chat-sources-toggle").click();
		await flush();
		const notes = Array.from(m.root.querySelectorAll(".discover-chat-source-note")).map((n) => n.textContent);
		expect(notes).toEqual(["“Alpha” is no longer in the vault.", "“Beta” has changed since this answer: the passages that were sent cannot be shown."]);
		expect(m.root.querySelector(".discover-chat-source-text")).toBeNull();
	});

	it("an answer without sources has no Sources line, and note text is never read as HTML", async () => {
		const m = await withAnswer(message("assistant", "Plain answer."));
		expect(m.root.querySelector(".discover-chat-sources-line")).toBeNull();
		mounted?.leaf.detach();
		const hostile = await setup({ files: { ...FILES, "Evil.md": "<img src=x onerror=alert(1)>" } });
		const answer = message("assistant", "Hm.", { createdAt: new Date(Date.now() + 1000).toISOString(), sources: [{ id: "Evil.md", name: "Evil", totalTokens: 9, sentTokens: 9, fit: "whole" }] });
		const session = hostile.sessions.add("Evil", [message("user", "q"), answer]);
		await hostile.view.openSession(session.id);
		await flush();
		hostile.q<HTMLButtonElement>(".discover-chat-sources-toggle").click();
		await flush();
		expect(hostile.root.querySelector(".discover-chat-sources-line img")).toBeNull();
		expect(hostile.q(".discover-chat-source-text").textContent).toBe("<img src=x onerror=alert(1)>");
	});

	it("an excerpt that opens with its own heading shows that heading once, under the path above it", async () => {
		const log = "# Harbour log\n\nWe left at dawn.\n\n## Day 45\n\nFog all morning.\n";
		const m = await setup({ files: { ...FILES, "Harbour log.md": log } });
		const start = log.indexOf("## Day 45");
		const passage = { start, end: log.length, headingPath: "# Harbour log > ## Day 45" };
		const answer = message("assistant", "Fog.", { createdAt: new Date(Date.now() + 1000).toISOString(), sources: [{ id: "Harbour log.md", name: "Harbour log", totalTokens: 40, sentTokens: 10, fit: "excerpts", passages: [passage] }] });
		const session = m.sessions.add("Harbour", [message("user", "Day 45?"), answer]);
		await m.view.openSession(session.id);
		await flush();
		m.q<HTMLButtonElement>(".discover-chat-sources-toggle").click();
		await flush();
		const shown = m.q(".discover-chat-source-passage");
		expect(shown.querySelector(".discover-chat-source-heading")?.textContent).toBe("# Harbour log");
		expect(shown.querySelector(".discover-chat-source-text")?.textContent).toBe("## Day 45\n\nFog all morning.\n");
		expect(shown.textContent?.split("## Day 45").length).toBe(2);
	});
});
