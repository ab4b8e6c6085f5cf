// @vitest-environment happy-dom
// The engine's warnings and status lines in the panel, in the person's language: shown from their
// codes, never as the engine's English; the system's own words folded under "Details".
import { afterEach, describe, expect, it } from "vitest";
import { flush, pressKey, typeInto } from "../obsidian/harness";
import { setLanguage } from "../../src/i18n";
import { mountView, type Mounted } from "./mountView";

let mounted: Mounted | undefined;
afterEach(async () => {
	setLanguage("en", "en-US");
	mounted?.leaf.detach();
	await flush();
	document.body.empty();
	mounted = undefined;
});

async function germanPanelWithATurn(): Promise<Mounted> {
	mounted = await mountView();
	setLanguage("de", "de-DE");
	typeInto(mounted.input(), "Frage");
	pressKey(mounted.input(), "Enter");
	await flush();
	return mounted;
}

describe("engine notes in the panel", () => {
	it("a coded warning is shown in German, its system reason folded under Details", async () => {
		const m = await germanPanelWithATurn();
		m.chat.event({ type: "warning", message: "The answer could not be saved: EACCES: permission denied", code: "answer_not_saved", detail: "EACCES: permission denied" });
		await flush();
		const note = m.q(".discover-chat-note-with-details");
		expect(note.firstChild?.textContent).toBe("Die Antwort konnte nicht gespeichert werden.");
		expect(note.querySelector("details > summary")?.textContent).toBe("Details");
		expect(note.querySelector(".discover-chat-error-said")?.textContent).toBe("EACCES: permission denied");
		expect(m.root.textContent).not.toContain("could not be saved");
	});

	it("a coded session warning names the chat and line in German", async () => {
		const m = await germanPanelWithATurn();
		m.chat.event({ type: "warning", message: 'Session "x", line 7: not JSON. The line was skipped and is kept in the file.', code: "session_line_skipped", params: { id: "x", line: 7 }, detail: "not JSON" });
		await flush();
		expect(m.q(".discover-chat-note-with-details").firstChild?.textContent).toBe("Chat „x“, Zeile 7 war nicht lesbar. Sie wurde übersprungen und bleibt in der Datei.");
	});

	it("a coded status line is shown in German", async () => {
		const m = await germanPanelWithATurn();
		m.chat.event({ type: "status", text: "Summarizing earlier messages…", code: "summarizing" });
		expect(m.q(".discover-chat-status").textContent).toBe("Fasse frühere Nachrichten zusammen …");
	});
});
