// @vitest-environment happy-dom
// Images through the panel: pasted into the input, saved in the chats folder's attachments, sent
// by reference with the message, shown on the sent message from the vault, and given back to the
// composer when the model cannot read them.
import { afterEach, describe, expect, it } from "vitest";
import { flush, pressKey, typeInto } from "../obsidian/harness";
import { LLMError } from "../../src/providers/errors";
import { mountView, type Mounted } from "./mountView";

let mounted: Mounted | undefined;
afterEach(async () => {
	mounted?.leaf.detach();
	await flush();
	document.body.empty();
	mounted = undefined;
});

/** A PNG's first bytes: enough for its format and size (800×600, within the limits: sent as is). */
function smallPng(): Uint8Array<ArrayBuffer> {
	const be32 = (n: number): number[] => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
	return new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...be32(13), 0x49, 0x48, 0x44, 0x52, ...be32(800), ...be32(600), 8, 6, 0, 0, 0]);
}

async function pasteImage(m: Mounted, name: string): Promise<void> {
	const event = new Event("paste", { bubbles: true, cancelable: true });
	Object.defineProperty(event, "clipboardData", { value: { files: [new File([smallPng()], name, { type: "image/png" })] } });
	m.input().dispatchEvent(event);
	for (let i = 0; i < 5; i++) await flush();
}

describe("images in the panel", () => {
	it("a pasted image is saved in the chats folder's attachments, sent by reference, and shown on the sent message", async () => {
		const m = (mounted = await mountView());
		await pasteImage(m, "image.png");
		const thumbs = m.root.querySelectorAll(".discover-chat-composer-image-thumb");
		expect(thumbs).toHaveLength(1);
		typeInto(m.input(), "What is in this picture?");
		pressKey(m.input(), "Enter");
		await flush();
		const images = m.chat.sent[0]?.opts.images ?? [];
		expect(images).toHaveLength(1);
		expect(images[0]).toMatchObject({ mediaType: "image/png", width: 800, height: 600, bytes: smallPng().byteLength });
		expect(images[0]?.path).toMatch(/^Discover\/Chats\/attachments\/Pasted image \d{8}-\d{6}\.png$/);
		expect(await m.app.vault.adapter.exists(images[0]?.path ?? "")).toBe(true);
		// The strip is empty once sent; the sent message shows the image from the vault.
		expect(m.root.querySelectorAll(".discover-chat-composer-image-thumb")).toHaveLength(0);
		const shown = m.messages()[0]?.querySelector<HTMLImageElement>(".discover-chat-message-image");
		expect(shown?.getAttribute("src")).toBe(m.app.vault.adapter.getResourcePath(images[0]?.path ?? ""));
	});

	it("a pasted image's thumbnail shares no class with the selection chip, so neither takes the other's styles", async () => {
		const m = (mounted = await mountView());
		await pasteImage(m, "image.png");
		// Found by what they are, not by class: the thumbnail's strip, and the chip with its icon.
		const strip = m.root.querySelector(".discover-chat-composer img")?.parentElement?.parentElement;
		const chip = m.root.querySelector(".discover-chat-attachment-icon")?.parentElement;
		expect(strip).toBeTruthy();
		expect(chip).toBeTruthy();
		// Obsidian's classes (icons, icon buttons) and the plugin's shared helpers may be on both; the
		// plugin's own styling classes must not.
		const shared = new Set(["discover-chat-hidden", "discover-chat-icon-button"]);
		const own = (el: Element): Set<string> => new Set([el, ...el.querySelectorAll("*")].flatMap((e) => [...e.classList]).filter((c) => c.startsWith("discover-") && !shared.has(c)));
		const chipClasses = own(chip!);
		expect([...own(strip!)].filter((c) => chipClasses.has(c))).toEqual([]);
	});

	it("when the model cannot read images, the image comes back to the composer for the next try", async () => {
		const m = (mounted = await mountView());
		await pasteImage(m, "diagram.png");
		typeInto(m.input(), "Explain this diagram");
		pressKey(m.input(), "Enter");
		await flush();
		expect(m.root.querySelectorAll(".discover-chat-composer-image-thumb")).toHaveLength(0);
		m.chat.fail(new LLMError("bad_request", "This model can't read images.", { imagesUnsupported: true }));
		await flush();
		expect(m.root.querySelectorAll(".discover-chat-composer-image-thumb")).toHaveLength(1);
	});

	it("with the setting on, images the active note embeds go with the message, by their vault path; off, they do not", async () => {
		const note = "# Alpha\n\nThe plan: ![[plan.png]] and ![chart](Notes/chart.png), and ![web](https://example.com/x.png).\n";
		for (const on of [true, false]) {
			const m = (mounted = await mountView({ files: { "Notes/Alpha.md": note }, settings: { sendNoteImages: on } }));
			await m.app.vault.createBinary("Notes/plan.png", smallPng().buffer);
			await m.app.vault.createBinary("Notes/chart.png", smallPng().buffer);
			typeInto(m.input(), "Summarize the plan");
			pressKey(m.input(), "Enter");
			for (let i = 0; i < 5; i++) await flush();
			const images = m.chat.sent[0]?.opts.images ?? [];
			expect(images.map((i) => i.path)).toEqual(on ? ["Notes/plan.png", "Notes/chart.png"] : []);
			if (on) expect(images[0]).toMatchObject({ mediaType: "image/png", width: 800, height: 600 });
			mounted.leaf.detach();
			await flush();
			document.body.empty();
		}
	});
});
