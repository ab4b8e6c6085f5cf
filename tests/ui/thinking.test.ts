// @vitest-environment happy-dom
// The "Thinking" block above an answer: open while the model thinks, folded with how long it thought.
import { afterEach, describe, expect, it } from "vitest";
import { flush, pressKey, typeInto } from "../obsidian/harness";
import { message } from "./fakes";
import { mountView, type Mounted } from "./mountView";

let mounted: Mounted | undefined;
afterEach(async () => {
	mounted?.leaf.detach();
	await flush();
	document.body.empty();
	mounted = undefined;
});

async function ask(text: string, opts: Parameters<typeof mountView>[0] = {}): Promise<Mounted> {
	mounted = await mountView(opts);
	typeInto(mounted.input(), text);
	pressKey(mounted.input(), "Enter");
	await flush();
	return mounted;
}

/** Runs a frame after `ms` of (test) time, and lets renders settle. */
async function frame(m: Mounted, ms = 16): Promise<void> {
	m.frames.frame(ms);
	await flush();
}

function block(m: Mounted) {
	const answer = m.messages()[1];
	const el = answer?.querySelector<HTMLDetailsElement>("details.discover-chat-thinking") ?? null;
	return {
		el,
		open: el?.open,
		label: el?.querySelector("summary")?.textContent,
		text: el?.querySelector(".discover-chat-thinking-body")?.textContent,
		answer: answer?.querySelector(".discover-chat-message-body")?.textContent,
	};
}

describe("the thinking block", () => {
	it("is the one place that says the model is thinking (the status line does not say it again)", async () => {
		const m = await ask("Why is the sky blue?");
		m.chat.think("Light scatters");
		await frame(m);
		const said = Array.from(m.root.querySelectorAll<HTMLElement>("*"))
			.filter((el) => el.children.length === 0 && !el.closest(".discover-chat-hidden") && /^Thinking/.test(el.textContent ?? ""));
		expect(said.map((el) => el.tagName.toLowerCase())).toEqual(["summary"]);
		m.chat.token("Because");
		await frame(m);
		expect(m.q(".discover-chat-status").textContent).toBe("Writing the answer…");
	});

	it("is open while the model thinks, and folds with how long it thought once the answer starts", async () => {
		const m = await ask("Why is the sky blue?");
		m.chat.think("Light scatters");
		await frame(m);
		expect(block(m)).toMatchObject({ open: true, label: "Thinking…", text: "Light scatters", answer: "" });
		// The block sits above the answer.
		expect(block(m).el?.nextElementSibling?.hasClass("discover-chat-message-body")).toBe(true);

		m.chat.think(" off air molecules.");
		await frame(m, 11_500);
		expect(block(m)).toMatchObject({ open: true, label: "Thinking…", text: "Light scatters off air molecules." });

		m.chat.token("Rayleigh ");
		await frame(m);
		expect(block(m)).toMatchObject({ open: false, label: "Thought for 12 s", answer: "Rayleigh " });
		m.chat.token("scattering.");
		await frame(m);
		m.chat.finish();
		await flush();
		expect(block(m)).toMatchObject({ open: false, label: "Thought for 12 s", text: "Light scatters off air molecules.", answer: "Rayleigh scattering." });
		expect(m.messages()).toHaveLength(2);
	});

	it("a person who opens it again keeps it open as the answer streams", async () => {
		const m = await ask("Hi?");
		m.chat.think("Hmm.");
		await frame(m);
		m.chat.token("Hello");
		await frame(m);
		block(m).el!.open = true;
		m.chat.token(" there.");
		await frame(m);
		m.chat.finish();
		await flush();
		expect(block(m).open).toBe(true);
	});

	it("text that turns out to be thinking moves into the block", async () => {
		const m = await ask("Hi?");
		m.chat.token("Okay, the user greets me.");
		await frame(m);
		expect(block(m).el).toBeNull();
		m.chat.retract();
		await frame(m, 3000);
		expect(block(m)).toMatchObject({ open: true, label: "Thinking…", text: "Okay, the user greets me.", answer: "" });
		m.chat.token("Hello!");
		await frame(m);
		expect(block(m)).toMatchObject({ open: false, label: "Thought for 3 s", answer: "Hello!" });
	});

	it("a saved answer shows its thinking folded, with the saved duration; answers without thinking have no block", async () => {
		mounted = await mountView({
			before: (w) => {
				const s = w.sessions.add("Sky", [
					message("user", "Why?"),
					message("assistant", "Rayleigh scattering.", { thinking: "Light scatters.", thinkingMs: 65_000 }),
					message("user", "And sunsets?"),
					message("assistant", "Longer path."),
				]);
				w.host.settings.activeSessionId = s.id;
			},
		});
		await flush();
		const blocks = Array.from(mounted.root.querySelectorAll<HTMLDetailsElement>("details.discover-chat-thinking"));
		expect(blocks).toHaveLength(1);
		expect(blocks[0]!.open).toBe(false);
		expect(blocks[0]!.querySelector("summary")?.textContent).toBe("Thought for 1 min 5 s");
		// Copy copies the answer, not the thinking; the answer's text is the answer alone.
		expect(mounted.texts()).toEqual(["Why?", "Rayleigh scattering.", "And sunsets?", "Longer path."]);
	});

	it("stopped while thinking: the thinking stays, marked stopped", async () => {
		const m = await ask("Think hard");
		m.chat.think("Step one…");
		await frame(m, 2000);
		m.button().click();
		await flush();
		await flush();
		expect(block(m)).toMatchObject({ text: "Step one…" });
		expect(block(m).label).toMatch(/^Thought for \d+ s$/);
		expect(m.messages()[1]!.querySelector(".discover-chat-message-stopped")).not.toBeNull();
	});
});
