// @vitest-environment happy-dom
// Attaching images in the panel: formats checked by their bytes, sizes read from headers (EXIF
// orientation applied), what is re-encoded, and the composer's strip (attach, remove, take, restore).
import { afterEach, describe, expect, it } from "vitest";
import type { ImageRef } from "../../src/core/types";
import { attachmentName, planImage, sniffImageType } from "../../src/ui/images/imagePlan";
import { headerSize } from "../../src/core/imageHeader";
import { ComposerImages } from "../../src/ui/panel/ComposerImages";

afterEach(() => document.body.empty());

const bytes = (...parts: (number[] | string)[]): Uint8Array =>
	new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));
const be32 = (n: number): number[] => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const be16 = (n: number): number[] => [(n >> 8) & 255, n & 255];
const le16 = (n: number): number[] => [n & 255, (n >> 8) & 255];

const PNG = bytes([0x89], "PNG\r\n", [0x1a, 0x0a], be32(13), "IHDR", be32(4000), be32(3000), [8, 6, 0, 0, 0]);
const GIF = bytes("GIF89a", le16(320), le16(200), [0, 0, 0]);
/** A JPEG whose EXIF says "rotate 90°" (orientation 6): stored 4000×3000, shown 3000×4000. */
function jpeg(orientation: number): Uint8Array {
	const tiff = bytes("MM", [0, 42], be32(8), be16(1), be16(0x0112), be16(3), be32(1), be16(orientation), [0, 0], be32(0));
	const app1 = bytes([0xff, 0xe1], be16(2 + 6 + tiff.length), "Exif", [0, 0], [...tiff]);
	const sof = bytes([0xff, 0xc0], be16(17), [8], be16(3000), be16(4000), [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
	return bytes([0xff, 0xd8], [...app1], [...sof], [0xff, 0xd9]);
}
const WEBP = bytes("RIFF", [0, 0, 0, 0], "WEBP", "VP8X", [10, 0, 0, 0], [0, 0, 0, 0], [0x3f, 0x06, 0], [0xaf, 0x04, 0]);

describe("what an attached image is", () => {
	it("is known by its bytes, not its name: PNG, JPEG, GIF, WebP; anything else is refused", () => {
		expect(sniffImageType(PNG)).toBe("image/png");
		expect(sniffImageType(jpeg(1))).toBe("image/jpeg");
		expect(sniffImageType(GIF)).toBe("image/gif");
		expect(sniffImageType(WEBP)).toBe("image/webp");
		expect(sniffImageType(bytes("<svg xmlns="))).toBeUndefined();
		expect(sniffImageType(bytes("BM", [0, 0, 0, 0]))).toBeUndefined();
		expect(sniffImageType(new Uint8Array())).toBeUndefined();
	});

	it("has its upright size read from the header, EXIF orientation applied", () => {
		expect(headerSize("image/png", PNG)).toEqual({ width: 4000, height: 3000 });
		expect(headerSize("image/gif", GIF)).toEqual({ width: 320, height: 200 });
		expect(headerSize("image/jpeg", jpeg(1))).toEqual({ width: 4000, height: 3000 });
		expect(headerSize("image/jpeg", jpeg(6))).toEqual({ width: 3000, height: 4000 });
		expect(headerSize("image/webp", WEBP)).toEqual({ width: 1600, height: 1200 });
		expect(headerSize("image/jpeg", bytes([0xff, 0xd8], [0x12, 0x34]))).toBeUndefined();
	});

	it("is re-encoded only when it must be scaled, or is a WebP or a large GIF", () => {
		expect(planImage("image/png", { width: 800, height: 600 }, 200_000).asIs).toBe(true);
		expect(planImage("image/jpeg", { width: 1200, height: 900 }, 300_000).asIs).toBe(true);
		expect(planImage("image/gif", { width: 320, height: 200 }, 50_000).asIs).toBe(true);
		expect(planImage("image/gif", { width: 320, height: 200 }, 5_000_000)).toMatchObject({ asIs: false, encodeAs: "image/png" });
		expect(planImage("image/webp", { width: 800, height: 600 }, 50_000)).toMatchObject({ asIs: false, encodeAs: "image/png" });
		expect(planImage("image/jpeg", { width: 4000, height: 3000 }, 5_000_000)).toEqual({ asIs: false, encodeAs: "image/jpeg", target: { width: 1238, height: 928 } });
		expect(planImage("image/png", { width: 3000, height: 2000 }, 5_000_000)).toMatchObject({ asIs: false, encodeAs: "image/png" });
	});

	it("is saved under a safe name with the sent format's extension", () => {
		const now = new Date("2026-11-24T15:50:40Z");
		expect(attachmentName("image.png", "image/png", now)).toBe("Pasted image 20261124-155040.png");
		expect(attachmentName("My [photo]#1.HEIC.jpeg", "image/jpeg", now)).toBe("My photo 1.HEIC 20261124-155040.jpg");
	});
});

describe("the composer's images", () => {
	const ref = (name: string): ImageRef => ({ path: `Chats/attachments/${name}`, mediaType: "image/png", width: 10, height: 10, bytes: 10 });

	function setup() {
		const composerEl = document.body.createDiv();
		const rowEl = composerEl.createDiv();
		const inputEl = rowEl.createEl("textarea");
		const calls = { attached: [] as string[], discarded: [] as string[], errors: [] as string[] };
		const images = new ComposerImages(composerEl, rowEl, inputEl, {
			attach: (file) => {
				calls.attached.push(file.name);
				if (file.name.endsWith(".svg")) return Promise.reject(new Error(`${file.name} can't be attached`));
				return Promise.resolve(ref(file.name));
			},
			discard: (r) => calls.discarded.push(r.path),
			src: (r) => `app://local/${r.path}`,
			onError: (m) => calls.errors.push(m),
		});
		return { composerEl, inputEl, images, calls };
	}

	const settle = (): Promise<void> => new Promise((resolve) => window.setTimeout(resolve, 0));

	function paste(target: HTMLElement, files: File[]): Event {
		const event = new Event("paste", { bubbles: true, cancelable: true });
		Object.defineProperty(event, "clipboardData", { value: { files } });
		target.dispatchEvent(event);
		return event;
	}

	it("takes a pasted image into the strip as a thumbnail from the vault, and the attach button opens the file picker", async () => {
		const { composerEl, inputEl, images, calls } = setup();
		const event = paste(inputEl, [new File([new Uint8Array([1])], "shot.png", { type: "image/png" })]);
		await settle();
		expect(event.defaultPrevented).toBe(true);
		expect(calls.attached).toEqual(["shot.png"]);
		expect(images.images.map((i) => i.path)).toEqual(["Chats/attachments/shot.png"]);
		expect(composerEl.querySelector("img")?.getAttribute("src")).toBe("app://local/Chats/attachments/shot.png");
		expect(composerEl.querySelector("button.discover-chat-attach")?.getAttribute("aria-label")).toBeTruthy();
	});

	it("leaves pasted text alone", async () => {
		const { inputEl, calls } = setup();
		const event = paste(inputEl, []);
		await settle();
		expect(event.defaultPrevented).toBe(false);
		expect(calls.attached).toEqual([]);
	});

	it("says why a file was refused, and keeps the others", async () => {
		const { inputEl, images, calls } = setup();
		paste(inputEl, [new File(["<svg/>"], "logo.svg", { type: "image/svg+xml" }), new File([new Uint8Array([1])], "ok.png", { type: "image/png" })]);
		await settle();
		await settle();
		expect(calls.errors).toEqual(["logo.svg can't be attached"]);
		expect(images.images.map((i) => i.path)).toEqual(["Chats/attachments/ok.png"]);
	});

	it("removes an image (its file is discarded); take() hands the rest to a send; restore() brings them back", async () => {
		const { composerEl, inputEl, images, calls } = setup();
		paste(inputEl, [new File([new Uint8Array([1])], "a.png", { type: "image/png" }), new File([new Uint8Array([2])], "b.png", { type: "image/png" })]);
		await settle();
		await settle();
		composerEl.querySelector<HTMLButtonElement>("button.discover-chat-composer-image-remove")?.click();
		expect(calls.discarded).toEqual(["Chats/attachments/a.png"]);
		const taken = images.take();
		expect(taken.map((i) => i.path)).toEqual(["Chats/attachments/b.png"]);
		expect(images.images).toEqual([]);
		expect(composerEl.querySelectorAll("img")).toHaveLength(0);
		images.restore(taken);
		expect(images.images).toEqual(taken);
		expect(composerEl.querySelectorAll("img")).toHaveLength(1);
	});
});

describe("images a note embeds", () => {
	it("are found as wiki and Markdown embeds of image files, once each; web addresses and other files are not", async () => {
		const { embeddedImageLinks } = await import("../../src/ui/images/noteImages");
		const text = "![[a.png]] ![[Folder/b.JPG|300]] ![[a.png]] ![[note]] ![[c.pdf]]\n![x](img/d%20e.webp) ![y](https://example.com/f.png) ![z](<g h.gif> \"title\")";
		expect(embeddedImageLinks(text)).toEqual(["a.png", "Folder/b.JPG", "img/d e.webp", "g h.gif"]);
	});
});
