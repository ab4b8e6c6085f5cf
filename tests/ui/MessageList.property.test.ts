// @vitest-environment happy-dom
// Invariants of the transcript under any sequence of what the engine and the person do.
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import type * as O from "obsidian";
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

type Op =
	| { kind: "user"; text: string }
	| { kind: "stream"; pieces: string[] }
	| { kind: "finish" }
	| { kind: "fail" }
	| { kind: "reset"; count: number };

const piece = fc.oneof(fc.constantFrom("word ", "\n\n", "**b** ", "- item\n", "```\ncode\n", "```\n", "  indented\n"), fc.string({ maxLength: 6 }));
const op: fc.Arbitrary<Op> = fc.oneof(
	fc.record({ kind: fc.constant("user" as const), text: fc.string({ minLength: 1, maxLength: 20 }) }),
	fc.record({ kind: fc.constant("stream" as const), pieces: fc.array(piece, { maxLength: 8 }) }),
	fc.constant({ kind: "finish" as const }),
	fc.constant({ kind: "fail" as const }),
	fc.record({ kind: fc.constant("reset" as const), count: fc.nat(6) }),
);

describe("MessageList invariants", () => {
	it("shows messages once each, in order, and unloads every rendering that is no longer on screen", async () => {
		const app = asObsidianApp(await createTestApp());
		let rendered: { el: HTMLElement; unloaded: boolean }[] = [];
		renderSpy.hook = (real, a, markdown, el, path, component: O.Component, ...rest) => {
			const entry = { el, unloaded: false };
			component.register(() => (entry.unloaded = true));
			rendered.push(entry);
			return real(a, markdown, el, path, component, ...rest);
		};

		await fc.assert(
			fc.asyncProperty(fc.array(op, { maxLength: 25 }), async (ops) => {
				document.body.empty();
				rendered = [];
				const frames = new ManualFrames();
				const list = new MessageList(document.body.createDiv(), { app, sourcePath: () => "", scheduler: frames.options, pageSize: 1000 });
				list.load();
				// What the screen should show, in order: saved ids, or the text of an answer that failed.
				let expected: string[] = [];
				for (const o of ops) {
					// One turn at a time, as the engine guarantees: no new question while an answer streams.
					if (o.kind === "user" && !list.isStreaming) {
						const m = message("user", o.text);
						list.upsert(m);
						expected.push(m.id);
					} else if (o.kind === "stream") {
						if (!list.isStreaming) list.startStreaming();
						for (const p of o.pieces) {
							list.appendToken(p);
							frames.frame();
						}
					} else if (o.kind === "finish" && list.isStreaming) {
						const m = message("assistant", list.streamedText);
						list.upsert(m);
						expected.push(m.id);
					} else if (o.kind === "fail" && list.isStreaming) {
						const text = list.streamedText;
						list.endStreaming();
						if (text !== "") expected.push("unsaved");
					} else if (o.kind === "reset") {
						if (list.isStreaming) list.endStreaming();
						const all = Array.from({ length: o.count }, (_, i) => message(i % 2 ? "assistant" : "user", `m${i}`));
						list.setMessages(all);
						expected = all.map((m) => m.id);
					}
					await flush();
				}
				if (list.isStreaming) {
					const m = message("assistant", list.streamedText);
					list.upsert(m);
					expected.push(m.id);
				}
				frames.frame();
				await flush();
				const shown = Array.from(document.body.querySelectorAll<HTMLElement>(".discover-chat-message")).map((el) =>
					(el.dataset.messageId ?? "").startsWith("discover-chat-streaming") ? "unsaved" : (el.dataset.messageId ?? ""),
				);
				expect(shown).toEqual(expected);
				for (const r of rendered) expect(r.unloaded).toBe(!r.el.isConnected);
				list.unload();
				await flush();
				expect(rendered.every((r) => r.unloaded)).toBe(true);
			}),
			{ numRuns: 150 },
		);
	});
});
