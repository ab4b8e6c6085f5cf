// @vitest-environment happy-dom
// Canvases as sources in the panel: `@` offers them, and a send carries the canvas as one source and
// the notes its file cards show, each as its own source under it; a card to a missing note is said.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { flush, pressKey, typeInto } from "../obsidian/harness";
import type { SourceRefStore, VaultSearchPort } from "../../src/ui/ports";
import { until } from "../support/chatHarness";
import { mountView, type Mounted } from "./mountView";

let mounted: Mounted | undefined;
afterEach(async () => {
	mounted?.leaf.detach();
	await flush();
	document.body.empty();
	mounted = undefined;
});

const MAP = readFileSync(resolve(process.cwd(), "tests/fixtures/canvas/research-map.canvas"), "utf8");
const FILES = {
	"Maps/Bees.canvas": MAP,
	"Papers/von Frisch.md": "# Von Frisch\n\nBees dance to share where the flowers are.\n",
	"Bees.md": "# Bees\n\nA note named like the canvas.\n",
};

async function setup(files: Record<string, string> = FILES): Promise<Mounted> {
	const store: SourceRefStore = { load: () => Promise.resolve([]), save: () => Promise.resolve() };
	mounted = await mountView({
		files,
		open: "Bees.md",
		before: (w) => {
			(w.host as { vaultSearch?: VaultSearchPort }).vaultSearch = { enabled: false, search: () => [] };
			const inner = w.factory;
			w.factory = async (h, onEvent) => Object.assign(await inner(h, onEvent), { sourceRefs: store });
		},
	});
	await flush();
	return mounted;
}

const options = (m: Mounted): HTMLElement[] => Array.from(m.root.querySelectorAll<HTMLElement>(".discover-chat-source-option"));

describe("canvases in the @ suggester", () => {
	it("offers a canvas beside notes, says it is a canvas, and a send carries the canvas and its notes", async () => {
		const m = await setup();
		typeInto(m.input(), "@bees");
		const texts = options(m).map((o) => o.textContent ?? "");
		expect(texts).toContain("BeesCanvas in Maps/");
		expect(texts).toContain("Bees");
		const i = texts.indexOf("BeesCanvas in Maps/");
		for (let k = 0; k < i; k++) pressKey(m.input(), "ArrowDown");
		pressKey(m.input(), "Enter");
		await flush();
		expect(Array.from(m.root.querySelectorAll(".discover-chat-source-chip-name")).map((c) => c.textContent)).toEqual(["Bees"]);
		// The preview counts the canvas once it and its note are read.
		await until(() => m.chat.previews.some((p) => p.sources.some((s) => s.id === "Maps/Bees.canvas")), "the canvas in the preview");
		typeInto(m.input(), "Why do bees dance?");
		pressKey(m.input(), "Enter");
		await flush();
		const sources = m.chat.sent[0]!.opts.sources ?? [];
		const notes = sources.filter((s) => s.kind === "note");
		expect(notes.map((s) => [s.id, s.name])).toEqual([
			["Maps/Bees.canvas", "Bees"],
			["Papers/von Frisch.md", "Bees › von Frisch"],
		]);
		expect(notes[0]!.text).toContain("## Research");
		expect(notes[0]!.text).toContain("Note: [[Papers/Lost paper#Results]] (missing: no such note in the vault)");
		expect(notes[1]!.text).toBe(FILES["Papers/von Frisch.md"]);
	});
});

describe("a canvas that points into a fenced folder", () => {
	it("never brings in a chat (Discover's own folder) its file card names: the card reads as missing", async () => {
		const canvas = JSON.stringify({
			nodes: [
				{ id: "a", type: "text", text: "Where the hives are", x: 0, y: 0, width: 200, height: 60 },
				{ id: "b", type: "file", file: "Discover/Chats/secret.md", x: 0, y: 100, width: 200, height: 60 },
			],
			edges: [],
		});
		const m = await setup({ "Maps/Hives.canvas": canvas, "Discover/Chats/secret.md": "SECRET-CHAT-TEXT", "Bees.md": "# Bees\n" });
		typeInto(m.input(), "@hives");
		const texts = options(m).map((o) => o.textContent ?? "");
		const i = texts.findIndex((t) => t.startsWith("Hives"));
		expect(i).toBeGreaterThanOrEqual(0);
		for (let k = 0; k < i; k++) pressKey(m.input(), "ArrowDown");
		pressKey(m.input(), "Enter");
		await flush();
		await until(() => m.chat.previews.some((p) => p.sources.some((s) => s.id === "Maps/Hives.canvas")), "the canvas in the preview");
		typeInto(m.input(), "Where are the hives?");
		pressKey(m.input(), "Enter");
		await flush();
		const sources = m.chat.sent[0]!.opts.sources ?? [];
		expect(sources.map((s) => s.id)).not.toContain("Discover/Chats/secret.md");
		expect(sources.some((s) => s.text.includes("SECRET-CHAT-TEXT"))).toBe(false);
		expect(sources.find((s) => s.id === "Maps/Hives.canvas")?.text).toContain("missing");
	});
});
