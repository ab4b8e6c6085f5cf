// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import type * as O from "obsidian";
import { Component } from "obsidian";
import { asObsidianApp, createTestApp, flush } from "../obsidian/harness";
import { MessageList } from "../../src/ui/panel/MessageList";
import { ManualFrames, message } from "./fakes";
import { renderSpy } from "./renderSpy";

vi.mock("../../src/ui/safeMarkdown", async (original) => (await import("./renderSpy")).spiedSafeMarkdown(original));

afterEach(() => {
	renderSpy.hook = undefined;
	vi.restoreAllMocks();
	document.body.empty();
});

async function setup() {
	const app = await createTestApp();
	const parent = document.body.createDiv();
	const frames = new ManualFrames();
	const list = new MessageList(parent, { app: asObsidianApp(app), sourcePath: () => "", scheduler: frames.options });
	list.load();
	const rendered: { markdown: string; component: O.Component; unloaded: boolean }[] = [];
	renderSpy.hook = (real, app, markdown, el, path, component, ...rest) => {
		const entry = { markdown, component, unloaded: false };
		component.register(() => (entry.unloaded = true));
		rendered.push(entry);
		return real(app, markdown, el, path, component, ...rest);
	};
	return { list, frames, rendered, parent };
}

describe("MessageList", () => {
	it("names who wrote each message: a label above answers (streamed or saved) and one for the person, kept through re-renders", async () => {
		const { list, frames } = await setup();
		list.setMessages([message("user", "Question"), message("assistant", "Saved answer")]);
		list.startStreaming();
		list.appendToken("Streamed **answer**");
		frames.frame();
		await flush();
		list.upsert(message("assistant", "Streamed **answer**"));
		await flush();
		const roles = Array.from(list.scrollEl.querySelectorAll<HTMLElement>(".discover-chat-message")).map((el) => [
			el.hasClass("discover-chat-message-user") ? "user" : "assistant",
			el.querySelector(".discover-chat-message-role")?.textContent,
		]);
		expect(roles).toEqual([
			["user", "You"],
			["assistant", "Assistant"],
			["assistant", "Assistant"],
		]);
		// The label sits outside the text, so what is copied or searched is the message alone.
		expect(Array.from(list.scrollEl.querySelectorAll(".discover-chat-message-body")).map((el) => el.textContent)).toEqual(["Question", "Saved answer", "Streamed answer"]);
	});

	it("shows an interrupted answer marked Interrupted, and says so when a crash came before its first word", async () => {
		const { list, parent } = await setup();
		list.setMessages([message("user", "Q"), message("assistant", "Half an answ", { interrupted: true }), message("user", "Q2"), message("assistant", "", { interrupted: true, thinking: "Hmm." })]);
		await flush();
		expect(Array.from(parent.querySelectorAll(".discover-chat-message-interrupted")).map((e) => e.textContent)).toEqual(["Interrupted", "Interrupted"]);
		const bodies = Array.from(parent.querySelectorAll(".discover-chat-message-body")).map((e) => e.textContent);
		expect(bodies[1]).toBe("Half an answ");
		expect(bodies[3]).toBe("Interrupted before the answer began.");
	});

	it("re-renders only the growing block of a streaming answer", async () => {
		const { list, frames, rendered } = await setup();
		list.startStreaming();
		list.appendToken("First paragraph.\n\nSecond");
		frames.frame();
		await flush();
		rendered.length = 0;
		list.appendToken(" paragraph grows");
		frames.frame();
		await flush();
		expect(rendered.map((r) => r.markdown)).toEqual(["Second paragraph grows"]);
		expect(list.scrollEl.textContent).toContain("First paragraph.");
	});

	it("keeps the streamed blocks when the saved answer matches, without a full re-render", async () => {
		const { list, frames, rendered } = await setup();
		list.startStreaming();
		list.appendToken("One.\n\nTwo.");
		frames.frame();
		await flush();
		rendered.length = 0;
		list.upsert(message("assistant", "One.\n\nTwo."));
		await flush();
		expect(rendered).toEqual([]);
		expect(list.scrollEl.querySelectorAll(".discover-chat-message")).toHaveLength(1);
	});

	it("unloads every message's Component when it is re-rendered or removed", async () => {
		const { list, frames, rendered } = await setup();
		list.setMessages([message("user", "Hi"), message("assistant", "Hello **there**")]);
		list.startStreaming();
		for (const piece of ["A", "B\n\n", "C", "D"]) {
			list.appendToken(piece);
			frames.frame();
			await flush();
		}
		list.endStreaming();
		await flush();
		const live = rendered.filter((r) => !r.unloaded);
		// What is on screen: two saved messages and the streamed answer's two blocks.
		expect(live).toHaveLength(4);
		list.setMessages([]);
		await flush();
		expect(rendered.every((r) => r.unloaded)).toBe(true);
	});

	it("renders a long session lazily and pages in earlier messages", async () => {
		const { list } = await setup();
		const all = Array.from({ length: 200 }, (_, i) => message(i % 2 ? "assistant" : "user", `m${i}`));
		list.setMessages(all);
		expect(list.renderedCount).toBe(30);
		list.loadEarlier();
		expect(list.renderedCount).toBe(60);
		for (let i = 0; i < 10; i++) list.loadEarlier();
		await flush();
		expect(list.renderedCount).toBe(200);
		expect(list.scrollEl.querySelector(".discover-chat-message")?.textContent).toContain("m0");
	});

	it("follows the answer down until the person scrolls up, and again at the bottom", async () => {
		const { list, frames } = await setup();
		const el = list.scrollEl;
		let scrollHeight = 1000;
		Object.defineProperty(el, "scrollHeight", { get: () => scrollHeight, configurable: true });
		Object.defineProperty(el, "clientHeight", { get: () => 400, configurable: true });
		list.startStreaming();
		list.appendToken("x");
		frames.frame();
		await flush();
		expect(el.scrollTop).toBe(1000);
		el.scrollTop = 200; // the person scrolls up
		el.dispatchEvent(new Event("scroll"));
		scrollHeight = 1400;
		list.appendToken("y");
		frames.frame();
		await flush();
		expect(el.scrollTop).toBe(200);
		el.scrollTop = 1000; // back at the bottom
		el.dispatchEvent(new Event("scroll"));
		scrollHeight = 1800;
		list.appendToken("z");
		frames.frame();
		await flush();
		expect(el.scrollTop).toBe(1800);
	});

	it("is a Component: unloading the list unloads its messages", async () => {
		const { list, rendered } = await setup();
		list.setMessages([message("user", "Hi")]);
		expect(list).toBeInstanceOf(Component);
		list.unload();
		await flush();
		expect(rendered.every((r) => r.unloaded)).toBe(true);
	});

	it("a chat file's image outside the vault is not read: its place says so, and the vault image beside it shows", async () => {
		const { list, parent } = await setup();
		const ref = (path: string) => ({ path, mediaType: "image/png" as const, width: 10, height: 10, bytes: 100 });
		list.setMessages([message("user", "Look", { attachments: [ref("../../etc/secret.png"), ref("Discover/Chats/attachments/ok.png")] })]);
		await flush();
		expect(Array.from(parent.querySelectorAll(".discover-chat-message-image-refused")).map((e) => e.textContent)).toEqual(["A chat file names an image outside the vault (secret.png); it was ignored and not read."]);
		expect(Array.from(parent.querySelectorAll("img.discover-chat-message-image")).map((i) => i.getAttribute("alt"))).toEqual(["ok.png"]);
		expect(parent.innerHTML).not.toContain("etc/secret");
	});
});
