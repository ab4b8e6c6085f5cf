// @vitest-environment happy-dom
// The note chip's toggle belongs to the panel (as the README and the settings tab say): it holds
// across chats, and a newly opened panel starts from the setting again.
import { afterEach, describe, expect, it } from "vitest";
import type * as O from "obsidian";
import { flush, pressKey, typeInto } from "../obsidian/harness";
import { DiscoverView } from "../../src/ui/panel/DiscoverView";
import { message, sentContext } from "./fakes";
import { mountView } from "./mountView";

afterEach(() => document.body.empty());

describe("the note toggle", () => {
	it("stays off across a chat switch and a new chat, and a reopened panel starts from the setting", async () => {
		let otherChat = "";
		const m = await mountView({ before: (w) => (otherChat = w.sessions.add("Older chat", [message("user", "Hi"), message("assistant", "Hello")]).id) });
		const chip = (): HTMLElement => m.q(".discover-chat-context-chip");
		chip().click();
		expect(chip().getAttr("aria-pressed")).toBe("false");

		await m.view.openSession(otherChat);
		await flush();
		expect(chip().getAttr("aria-pressed")).toBe("false");
		m.q<HTMLElement>(`[aria-label="New chat"]`).click();
		await flush();
		typeInto(m.input(), "Still without the note?");
		pressKey(m.input(), "Enter");
		await flush();
		expect(sentContext(m.chat.sent[0]!.opts)).toBeUndefined();
		expect(m.host.settings.includeActiveNote).toBe(true);

		// The same settings, a new panel: the toggle starts from the setting.
		m.leaf.detach();
		await flush();
		const leaf = m.app.workspace.getRightLeaf(false)!;
		const view = new DiscoverView(leaf as unknown as O.WorkspaceLeaf, m.host, m.factory, { scheduler: m.frames.options });
		await leaf.open(view as unknown as Parameters<typeof leaf.open>[0]);
		expect(view.contentEl.querySelector(".discover-chat-context-chip")?.getAttr("aria-pressed")).toBe("true");
		leaf.detach();
	});
});
