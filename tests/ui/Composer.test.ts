// @vitest-environment happy-dom
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { pressKey, typeInto } from "../obsidian/harness";
import { Composer } from "../../src/ui/panel/Composer";
import type { SendKey } from "../../src/settings/settings";

afterEach(() => document.body.empty());

function setup() {
	const calls = { send: [] as string[], stop: 0, commands: [] as string[] };
	const composer = new Composer(document.body.createDiv(), {
		onSend: (t) => calls.send.push(t),
		onStop: () => calls.stop++,
		onCommand: (c) => calls.commands.push(c.name),
		onInput: () => undefined,
	});
	return { composer, calls };
}

type Action = { kind: "type"; text: string } | { kind: "enter"; shift: boolean } | { kind: "click" } | { kind: "busy"; on: boolean };

describe("Composer", () => {
	it("sends only when idle, never blank text, and the button is Stop while busy", () => {
		const action: fc.Arbitrary<Action> = fc.oneof(
			fc.record({ kind: fc.constant("type" as const), text: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("  ", "\n", "hello")) }),
			fc.record({ kind: fc.constant("enter" as const), shift: fc.boolean() }),
			fc.constant({ kind: "click" as const }),
			fc.record({ kind: fc.constant("busy" as const), on: fc.boolean() }),
		);
		fc.assert(
			fc.property(fc.array(action, { maxLength: 30 }), (actions) => {
				document.body.empty();
				const { composer, calls } = setup();
				let busy = false;
				let expectedSends = 0;
				let expectedStops = 0;
				let expectedCommands = 0;
				for (const a of actions) {
					if (a.kind === "busy") {
						busy = a.on;
						composer.setBusy(busy);
					} else if (a.kind === "type") {
						typeInto(composer.inputEl, a.text);
					} else {
						// With the command menu showing, Enter or Send picks the highlighted command instead.
						const menuOpen = !composer.el.querySelector(".discover-chat-command-menu")!.hasClass("discover-chat-hidden");
						const wouldSend = !busy && composer.value.trim() !== "" && !menuOpen;
						const wouldCommand = !busy && composer.value.trim() !== "" && menuOpen;
						if (a.kind === "enter") {
							pressKey(composer.inputEl, "Enter", { shift: a.shift });
							if (!a.shift && wouldSend) expectedSends++;
							if (!a.shift && wouldCommand) expectedCommands++;
						} else {
							composer.buttonEl.click();
							if (busy) expectedStops++;
							else if (wouldSend) expectedSends++;
							else if (wouldCommand) expectedCommands++;
						}
					}
					expect(composer.buttonEl.getAttr("aria-label")).toBe(busy ? "Stop answer" : "Send message");
				}
				expect(calls.send).toHaveLength(expectedSends);
				expect(calls.send.every((t) => t.trim() !== "")).toBe(true);
				expect(calls.stop).toBe(expectedStops);
				expect(calls.commands).toHaveLength(expectedCommands);
			}),
		);
	});

	it("offers matching commands, moves through them with the arrows, and Tab completes", () => {
		const { composer, calls } = setup();
		typeInto(composer.inputEl, "/");
		const names = () => Array.from(document.body.querySelectorAll(".discover-chat-command-name")).map((e) => e.textContent);
		expect(names()).toEqual(["/summarize", "/outline", "/questions"]);
		pressKey(composer.inputEl, "ArrowDown");
		const selected = document.body.querySelector(".discover-chat-command.is-selected");
		expect(selected?.textContent).toContain("/outline");
		// Screen readers follow the highlight while focus stays in the input.
		expect(composer.inputEl.getAttr("aria-activedescendant")).toBe(selected?.id);
		expect(composer.inputEl.getAttr("aria-controls")).toBe(selected?.parentElement?.id);
		pressKey(composer.inputEl, "Tab");
		expect(composer.value).toBe("/outline");
		pressKey(composer.inputEl, "Enter");
		expect(calls.commands).toEqual(["outline"]);
		expect(composer.inputEl.hasAttribute("aria-activedescendant")).toBe(false);
		expect(calls.send).toEqual([]);
	});

	it("grows with its content", () => {
		const { composer } = setup();
		typeInto(composer.inputEl, "one\ntwo\nthree");
		expect(Number(composer.inputEl.rows)).toBe(3);
		typeInto(composer.inputEl, "x\n".repeat(30));
		expect(Number(composer.inputEl.rows)).toBe(10);
	});
});

describe("Composer: the “Send with” setting", () => {
	function withSendKey(sendKey: SendKey) {
		const sent: string[] = [];
		const composer = new Composer(document.body.createDiv(), {
			onSend: (t) => sent.push(t),
			onStop: () => undefined,
			onCommand: () => undefined,
			onInput: () => undefined,
			sendKey: () => sendKey,
		});
		typeInto(composer.inputEl, "a long prompt");
		return { composer, sent };
	}

	it("Enter (the default) sends, and Shift+Enter leaves the key to the textarea for a new line", () => {
		const { composer, sent } = withSendKey("enter");
		expect(pressKey(composer.inputEl, "Enter", { shift: true }).defaultPrevented).toBe(false);
		expect(sent).toEqual([]);
		expect(pressKey(composer.inputEl, "Enter").defaultPrevented).toBe(true);
		expect(sent).toEqual(["a long prompt"]);
	});

	it("Ctrl/Cmd+Enter sends, and plain Enter leaves the key to the textarea for a new line", () => {
		const { composer, sent } = withSendKey("mod-enter");
		expect(pressKey(composer.inputEl, "Enter").defaultPrevented).toBe(false);
		expect(pressKey(composer.inputEl, "Enter", { shift: true }).defaultPrevented).toBe(false);
		expect(sent).toEqual([]);
		expect(pressKey(composer.inputEl, "Enter", { ctrl: true }).defaultPrevented).toBe(true);
		expect(pressKey(composer.inputEl, "Enter", { meta: true }).defaultPrevented).toBe(true);
		expect(sent).toEqual(["a long prompt", "a long prompt"]);
	});

	it("with Ctrl/Cmd+Enter chosen, Enter still picks the highlighted `/` command", () => {
		const commands: string[] = [];
		const composer = new Composer(document.body.createDiv(), {
			onSend: () => undefined,
			onStop: () => undefined,
			onCommand: (c) => commands.push(c.name),
			onInput: () => undefined,
			sendKey: () => "mod-enter",
		});
		typeInto(composer.inputEl, "/sum");
		pressKey(composer.inputEl, "Enter");
		expect(commands).toEqual(["summarize"]);
	});
});
