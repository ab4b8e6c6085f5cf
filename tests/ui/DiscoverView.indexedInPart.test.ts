// @vitest-environment happy-dom
// A note over the per-note index limit (settings: indexNoteLimitMb) is indexed in part: the panel on
// the plugin's own engine, with the plugin's vault index service behind @vault, says so on the
// answer's sources line when such a note was sent. A note indexed whole adds nothing there.
import { Component } from "obsidian";
import { beforeAll, describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp, flush, pressKey, typeInto } from "../obsidian/harness";
import { until } from "../support/chatHarness";
import type { ProviderServer } from "../support/providerServer";
import type { DiscoverHost } from "../../src/ui/host";
import { NoteIndexService } from "../../src/wiring/noteIndexService";
import { testSettings } from "./fakes";
import { mountRuntimePanel, runtimePanelServer, serveOllama } from "./runtimePanel";

const shared = runtimePanelServer();
let server: ProviderServer;
beforeAll(() => {
	server = shared.server();
});

// 0.01 MB: 10,486 characters (the settings tab accepts 1 MB and up; the service takes what it is given).
const LIMIT_MB = 0.01;
const BIG = `# Big\n\nThe zephyrine lantern hangs in the boathouse.\n\n${"Filler line about nothing much.\n".repeat(600)}`;
const SMALL = "# Small\n\nThe quillwort grows by the pond.\n";

async function setup() {
	const app = await createTestApp({ files: { "Notes/Big.md": BIG, "Notes/Small.md": SMALL } });
	const settings = testSettings({ provider: "ollama", baseUrl: server.url, model: "llama3.2", includeActiveNote: false, indexNoteLimitMb: LIMIT_MB });
	const service = new NoteIndexService({ app: asObsidianApp(app), settings: () => settings, dir: ".obsidian/plugins/discover-chat", saveDelayMs: 10 });
	await app.vault.adapter.mkdir(".obsidian/plugins/discover-chat");
	const owner = new Component();
	owner.load();
	owner.addChild(service);
	shared.cleanups.push(() => owner.unload());
	await service.whenBuilt();
	const host: DiscoverHost = { app: asObsidianApp(app), settings, saveSettings: () => Promise.resolve() };
	(host as { vaultSearch?: NoteIndexService }).vaultSearch = service;
	serveOllama(server, ["llama3.2"]);
	const panel = await mountRuntimePanel(app, host, server, shared.cleanups);
	return { app, service, settings, panel };
}

async function addVault(root: HTMLElement): Promise<void> {
	const input = root.querySelector<HTMLTextAreaElement>(".discover-chat-input")!;
	typeInto(input, "@vau");
	await until(() => root.querySelector(".discover-chat-source-option") !== null, "the suggester");
	pressKey(input, "Enter");
	await flush();
	await until(() => root.querySelector(".discover-chat-source-chip") !== null, "the @vault chip");
}

const lastLine = (root: HTMLElement): Element | undefined => Array.from(root.querySelectorAll(".discover-chat-sources-line")).pop();

describe("a note indexed in part, on the sources line", () => {
	it("says how many notes sent were indexed in part, and over what size; a note indexed whole adds nothing", async () => {
		const { service, panel } = await setup();
		expect(BIG.length).toBeGreaterThan(LIMIT_MB * 1024 * 1024);
		expect(service.indexedInPartOverMb("Notes/Big.md", BIG.length)).toBe(LIMIT_MB);
		expect(service.indexedInPartOverMb("Notes/Small.md", SMALL.length)).toBeUndefined();
		await addVault(panel.root);

		await panel.sendAndCapture("Where does the zephyrine lantern hang?");
		await until(() => lastLine(panel.root)?.querySelector(".discover-chat-sources-names")?.textContent === "Big", "the sources line");
		expect(lastLine(panel.root)?.querySelector(".discover-chat-sources-partial")?.textContent).toBe("1 note indexed in part (over 0.01 MB)");

		await panel.sendAndCapture("Where does the quillwort grow?");
		await until(() => lastLine(panel.root)?.querySelector(".discover-chat-sources-names")?.textContent === "Small", "the second sources line");
		expect(lastLine(panel.root)?.querySelector(".discover-chat-sources-partial")).toBeNull();
	});

	it("a new limit in the settings re-indexes the notes it changes: past the old limit, the note's end is found", async () => {
		const { app, service, settings } = await setup();
		// The last line is past 0.01 MB: not in the index yet.
		const tail = "The final line names the marigold.\n";
		const big = app.vault.getFileByPath("Notes/Big.md")!;
		await app.vault.modify(big, BIG + tail);
		await flush();
		await service.whenChangesIndexed();
		expect(service.search("marigold").map((h) => h.id)).toEqual([]);
		settings.indexNoteLimitMb = 1;
		service.settingsChanged();
		await flush();
		await service.whenChangesIndexed();
		expect(service.search("marigold").map((h) => h.id)).toEqual(["Notes/Big.md"]);
		expect(service.indexedInPartOverMb("Notes/Big.md", BIG.length + tail.length)).toBeUndefined();
	});
});
