// A follow-up's own passages under the "stable" layout (promptFresh.ts): what the earlier turns
// already carry is not added again, but a passage they sent only the start of is not carried.
import { describe, expect, it } from "vitest";
import { defaultSourceFitter } from "../../src/chat/defaultFitter";
import { freshFitter } from "../../src/chat/promptFresh";
import { estimateTokens } from "../../src/chat/tokens";
import { passagesOf } from "../../src/context/passageCache";

const entries = Array.from({ length: 60 }, (_, i) => `## Entry ${i}\n\nThe ledger code zorb${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}ix marks cargo entry ${i}.\n\nThe harbour master signed it.`);
const note = entries.join("\n\n");
const source = { id: "ledger", text: note, name: "Ledger" };
const passageOf = (word: string): { start: number; end: number } => {
	const at = note.indexOf(word);
	const p = passagesOf(source.id, source.text, source.name).passages.find((x) => x.start <= at && x.end > at);
	if (p === undefined) throw new Error(`no passage holds ${word}`);
	return p;
};

describe("freshFitter", () => {
	it("offers a passage an earlier turn sent only the heading of (the top-up's last piece, cut short)", () => {
		const p = passageOf("zorbybix");
		// The earlier turn's excerpt ended with this passage's heading line and a gap mark.
		const sent = new Map([[source.id, [{ start: 0, end: 200 }, { start: p.start, end: p.start + "## Entry 50".length }]]]);
		const fit = freshFitter(defaultSourceFitter, sent)(source, 400, "What does zorbybix mark?", estimateTokens);
		expect(fit.fit).toBe("excerpts");
		expect(fit.text).toContain("The ledger code zorbybix marks cargo entry 50.");
	});

	it("adds nothing when the earlier turns carry the passage the question is about whole", () => {
		const p = passageOf("zorbybix");
		const sent = new Map([[source.id, [{ start: p.start, end: p.end }]]]);
		const fit = freshFitter(defaultSourceFitter, sent)(source, 400, "What does zorbybix mark?", estimateTokens);
		// The other passages match only "marks", "the": not worth repeating for the rest of the cycle.
		expect(fit.fit).toBe("none");
		expect(fit.sentTokens).toBe(0);
	});
});

describe("the sources reported under 'Answer faster'", () => {
	it("a note the earlier turn sent excerpts of is reported with them (not 'not included') when this turn adds nothing", async () => {
		const { ChatService } = await import("../../src/chat/ChatService");
		const { MemoryFileStore } = await import("../../src/sessions/memoryStore");
		const { SessionManager } = await import("../../src/sessions/SessionManager");
		const { StubAdapter } = await import("../support/stubAdapter");
		const long = Array.from({ length: 400 }, (_, i) => `## Entry ${i}\n\nThe ledger code zorb${i}ix marks cargo entry ${i}, signed by the harbour master.`).join("\n\n");
		const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
		const chat = new ChatService({ adapter: new StubAdapter({ reply: "Noted." }), sessions, model: "m", earlierSources: "stable", settings: { maxPromptTokens: 8192, reservedResponseTokens: 512 } });
		await chat.sendMessage("What does zorb12ix mark?", { context: long, contextName: "Ledger" });
		const next = chat.previewPrompt("Thanks", { context: long, contextName: "Ledger" });
		const fit = next.sources.find((s) => s.name === "Ledger");
		expect(fit?.fit).toBe("excerpts");
		expect(fit?.passages?.some((p) => long.slice(p.start, p.end).includes("zorb12ix"))).toBe(true);
		expect(fit?.sentTokens).toBeGreaterThan(0);
	});
});
