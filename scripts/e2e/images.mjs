// The browser test's images scenario: a large image pasted into the
// composer as a real ClipboardEvent, its thumbnail, the request carrying it in Ollama's form
// (`images: [base64]`, scaled down), the chat's file naming it only, the file in the chats folder's
// attachments; the attach button and a drop; screenshots in light, dark and at 390 px.
import { join } from "node:path";
import * as harness from "./harness.mjs";
import { overflows as overflowsOf } from "./layout.mjs";

export const name = "images";

/** @param {import("./harness.mjs").Harness} h */
export async function run({ page, model }) {
	const { check, artifacts, VIEW, step } = harness;
	await step("images: pasted, attached and dropped; sent in Ollama's form, scaled down; the chat's file names them only", () => imageSteps({ page, model, check, artifacts, VIEW, overflows: overflowsOf }));
}

const CHATS = "Discover/Chats";
const ATTACHMENTS = `${CHATS}/attachments`;
/** The provider's recommended limits (README "Images"): long side and, about, megapixels. */
const LONG_SIDE = 1568;
const MAX_PIXELS = 1.2e6;

/**
 * @param {{ page: import("playwright-core").Page, model: { queue(a: unknown): void, lastChatRequest(): any }, check: (ok: boolean, what: string) => boolean, artifacts: string, VIEW: string, overflows: (page: unknown, selectors: string[]) => Promise<string[]> }} t
 */
export async function imageSteps({ page, model, check, artifacts, VIEW, overflows }) {
	const composer = `${VIEW} .discover-chat-composer`;
	const thumbs = `${composer} .discover-chat-composer-image-thumb`;
	const idle = () => page.waitForFunction(() => document.querySelector(".discover-chat-send")?.getAttribute("aria-label") === "Send message", null, { timeout: 10000 });
	const themed = async (name, shoot) => {
		await shoot(`${name}-light`);
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await shoot(`${name}-dark`);
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
	};
	const loadedThumbs = (count) =>
		page.waitForFunction(
			({ sel, n }) => {
				const imgs = [...document.querySelectorAll(sel)];
				return imgs.length === n && imgs.every((i) => i.complete && i.naturalWidth > 0);
			},
			{ sel: thumbs, n: count },
			{ timeout: 15000 },
		);

	await harness.serveVaultResources(page);
	// A new chat (the button is disabled while the chat is empty already).
	if ((await page.locator(`${VIEW} .discover-chat-message`).count()) > 0) await page.click(`${VIEW} [aria-label="New chat"]`);
	await page.waitForSelector(`${VIEW} .discover-chat-empty-prompt`, { timeout: 5000 });

	// 1. Paste a 3000×2000 PNG made in the page, as a screenshot tool puts one on the clipboard.
	const source = await page.evaluate(async (sel) => {
		const canvas = document.createElement("canvas");
		canvas.width = 3000;
		canvas.height = 2000;
		const ctx = canvas.getContext("2d");
		const grad = ctx.createLinearGradient(0, 0, 3000, 2000);
		grad.addColorStop(0, "#2a6f97");
		grad.addColorStop(1, "#e9c46a");
		ctx.fillStyle = grad;
		ctx.fillRect(0, 0, 3000, 2000);
		ctx.fillStyle = "#264653";
		for (let i = 0; i < 12; i++) ctx.fillRect(150 + i * 230, 400 + (i % 3) * 300, 160, 900);
		const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
		const data = new DataTransfer();
		data.items.add(new File([blob], "image.png", { type: "image/png" }));
		const input = document.querySelector(sel);
		input.focus();
		const event = new ClipboardEvent("paste", { bubbles: true, cancelable: true, clipboardData: data });
		input.dispatchEvent(event);
		return { bytes: blob.size, taken: event.defaultPrevented };
	}, `${VIEW} .discover-chat-input`);
	check(source.taken, `a pasted image is taken by the composer (a ${(source.bytes / 1024).toFixed(0)} KB 3000×2000 PNG)`);
	await loadedThumbs(1);
	check(true, "its thumbnail appears in the composer and shows the image");
	const strip = await page.evaluate((sel) => {
		const item = document.querySelector(sel)?.parentElement;
		const thumb = item?.querySelector("img")?.getBoundingClientRect();
		const box = item?.getBoundingClientRect();
		const input = document.querySelector(".discover-chat-input")?.getBoundingClientRect();
		return { item: box && [Math.round(box.width), Math.round(box.height)], thumb: thumb && [Math.round(thumb.width), Math.round(thumb.height)], aboveInput: !!box && !!input && box.bottom <= input.top + 1 };
	}, thumbs);
	check(JSON.stringify(strip.item) === JSON.stringify(strip.thumb) && strip.aboveInput, `the thumbnail sits above the input, its box the size of the image (box ${strip.item}, image ${strip.thumb})`);
	const saved = await attachmentFiles(page);
	check(saved.length === 1, `the image is saved in the chats folder's attachments when attached (${saved.join(", ")})`);
	const shootComposer = (name) => page.locator(composer).screenshot({ path: join(artifacts, `${name}.png`) });
	await themed("image-composer", shootComposer);

	// 2. Send it: Ollama's `images: [base64]` on the user message, scaled down.
	model.queue({ tokens: "A gradient with twelve dark bars.".split(/(?= )/), tokensPerSecond: 200 });
	await page.fill(`${VIEW} .discover-chat-input`, "What is in this picture?");
	await page.press(`${VIEW} .discover-chat-input`, "Enter");
	await idle();
	check((await page.locator(thumbs).count()) === 0, "sending empties the composer's images");
	const sent = model.lastChatRequest();
	const user = (sent?.messages ?? []).filter((m) => m.role === "user").at(-1);
	const images = Array.isArray(user?.images) ? user.images : [];
	check(images.length === 1 && typeof images[0] === "string" && /^[A-Za-z0-9+/]+=*$/.test(images[0]), `the user message carries the image as Ollama's images: [base64] (${images.length} image(s), content "${user?.content}")`);
	const bytes = Buffer.from(images[0] ?? "", "base64");
	const size = imageSize(bytes);
	check(size !== null && Math.max(size.width, size.height) <= LONG_SIDE && size.width * size.height <= MAX_PIXELS && size.width < 3000, `the image sent is scaled down: ${size ? `${size.type} ${size.width}×${size.height}` : "unreadable"}, ${(bytes.length / 1024).toFixed(0)} KB (long side ≤ ${LONG_SIDE} px, ≤ ~1.15 MP)`);
	check(size !== null && Math.abs(size.width / size.height - 1.5) < 0.01, `it keeps its shape (${size?.width}×${size?.height})`);

	// 3. The chat's file names the image; the image is a file in the chats folder's attachments.
	const session = await page.evaluate(async (folder) => {
		const adapter = window.e2e.app.vault.adapter;
		// Wherever the store keeps chats under the chats folder (today its sessions/ folder).
		const files = [];
		for (const queue = [folder]; queue.length > 0; ) {
			const listed = await adapter.list(queue.shift());
			files.push(...listed.files);
			queue.push(...listed.folders);
		}
		for (const f of files.filter((p) => p.endsWith(".jsonl"))) {
			const text = await adapter.read(f);
			if (text.includes("What is in this picture?")) return { path: f, text };
		}
		return null;
	}, CHATS);
	const refs = [...(session?.text.matchAll(/"path":"([^"]+)"/g) ?? [])].map((m) => m[1]).filter((p) => p.startsWith(`${ATTACHMENTS}/`));
	check(session !== null && refs.length >= 1, `the chat's file references the image (${session?.path}: ${refs.join(", ")})`);
	const longRun = session?.text.match(/[A-Za-z0-9+/=]{200,}/);
	check(session !== null && !longRun && !session.text.includes((images[0] ?? "").slice(0, 64)), `the chat's file holds no base64 (${session ? `${session.text.length} characters` : "no file"}${longRun ? `, a run of ${longRun[0].length}` : ""})`);
	const stored = refs[0] ? await page.evaluate(async (path) => {
		const adapter = window.e2e.app.vault.adapter;
		if (!(await adapter.exists(path))) return null;
		const buf = new Uint8Array(await adapter.readBinary(path));
		let s = "";
		for (let i = 0; i < buf.length; i += 0x8000) s += String.fromCharCode(...buf.subarray(i, i + 0x8000));
		return btoa(s);
	}, refs[0]) : null;
	check(stored !== null && stored === images[0], `the referenced file exists under ${ATTACHMENTS}/ and is exactly what was sent (${stored === null ? "missing" : `${Buffer.from(stored, "base64").length} bytes`})`);

	// 4. The sent message shows its image (from the vault).
	const message = page.locator(`${VIEW} .discover-chat-message-user`).last();
	await page.waitForFunction(() => {
		const img = [...document.querySelectorAll(".discover-chat-message-user .discover-chat-message-image")].at(-1);
		return !!img && img.complete && img.naturalWidth > 0;
	}, null, { timeout: 10000 });
	const shown = await message.locator(".discover-chat-message-image").evaluate((img) => {
		const r = img.getBoundingClientRect();
		const message = img.closest(".discover-chat-message");
		const box = message.getBoundingClientRect();
		const body = message.querySelector(".discover-chat-message-body").getBoundingClientRect();
		return { w: Math.round(r.width), h: Math.round(r.height), inside: r.left >= box.left - 1 && r.right <= box.right + 1, above: r.bottom <= body.top + 1, rightEdges: [Math.round(r.right), Math.round(body.right)] };
	});
	check(shown.w > 0 && shown.h > 0 && shown.inside, `the sent message shows its image inside the message (${shown.w}×${shown.h} px)`);
	check(shown.above && Math.abs(shown.rightEdges[0] - shown.rightEdges[1]) <= 1, `the image sits above the question's bubble, not beside it, at the same right edge (${shown.rightEdges.join(" / ")} px)`);
	const shootMessages = (name) => page.locator(`${VIEW} .discover-chat-messages`).screenshot({ path: join(artifacts, `${name}.png`) });
	await themed("image-message", shootMessages);

	// 5. The attach button (a JPEG through the file picker) and a drop on the composer; removing them deletes their files.
	const jpeg = await page.evaluate(async () => {
		const canvas = document.createElement("canvas");
		canvas.width = 800;
		canvas.height = 600;
		const ctx = canvas.getContext("2d");
		ctx.fillStyle = "#6a994e";
		ctx.fillRect(0, 0, 800, 600);
		ctx.fillStyle = "#f2e8cf";
		ctx.beginPath();
		ctx.arc(400, 300, 200, 0, Math.PI * 2);
		ctx.fill();
		const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.9));
		const buf = new Uint8Array(await blob.arrayBuffer());
		let s = "";
		for (let i = 0; i < buf.length; i += 0x8000) s += String.fromCharCode(...buf.subarray(i, i + 0x8000));
		return btoa(s);
	});
	const chooser = page.waitForEvent("filechooser", { timeout: 5000 });
	await page.click(`${composer} .discover-chat-attach`);
	await (await chooser).setFiles({ name: "photo.jpg", mimeType: "image/jpeg", buffer: Buffer.from(jpeg, "base64") });
	await loadedThumbs(1);
	check(true, "the attach button opens the file picker, and the chosen image shows as a thumbnail");
	await page.evaluate(async (sel) => {
		const canvas = document.createElement("canvas");
		canvas.width = 400;
		canvas.height = 300;
		canvas.getContext("2d").fillRect(0, 0, 400, 300);
		const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
		const data = new DataTransfer();
		data.items.add(new File([blob], "dropped.png", { type: "image/png" }));
		const target = document.querySelector(sel);
		target.dispatchEvent(new DragEvent("dragover", { bubbles: true, cancelable: true, dataTransfer: data }));
		target.dispatchEvent(new DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: data }));
	}, `${VIEW} .discover-chat-input`);
	await loadedThumbs(2);
	check(true, "an image dropped on the input shows as a second thumbnail");
	const withTwo = await attachmentFiles(page);
	check(withTwo.length === 3, `both are saved in the attachments (${withTwo.length} files)`);

	// 6. At 390 px: the two thumbnails and the sent message with its image; nothing overflows.
	await page.setViewportSize({ width: 390, height: 844 });
	await page.evaluate(() => document.body.classList.add("is-mobile"));
	await page.waitForTimeout(200);
	const phoneOver = await overflows(page, [VIEW, composer, `${composer} .discover-chat-input-row`, `${composer} .discover-chat-composer-images`, `${VIEW} .discover-chat-messages`, `${VIEW} .discover-chat-message-images`]);
	check(phoneOver.length === 0, `phone, images: nothing overflows or is clipped (${phoneOver.join("; ") || "none"})`);
	const phoneImage = await message.locator(".discover-chat-message-image").evaluate((img) => Math.round(img.getBoundingClientRect().right) <= Math.round(img.closest(".discover-chat-messages").getBoundingClientRect().right));
	check(phoneImage, "phone: the sent image stays inside the messages");
	await themed("phone-images", (name) => page.screenshot({ path: join(artifacts, `${name}.png`) }));
	await page.evaluate(() => document.body.classList.remove("is-mobile"));
	await page.setViewportSize({ width: 1280, height: 800 });

	for (let i = 0; i < 2; i++) await page.locator(`${composer} .discover-chat-composer-image-remove`).first().click();
	await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 0, thumbs, { timeout: 5000 });
	const left = await attachmentFiles(page);
	check(left.length === 1 && left[0] === refs[0], `removing an image before sending deletes its file; the sent one stays (${left.join(", ")})`);
}

/** The files in the chats folder's attachments. */
function attachmentFiles(page) {
	return page.evaluate(async (folder) => {
		const adapter = window.e2e.app.vault.adapter;
		return (await adapter.exists(folder)) ? (await adapter.list(folder)).files : [];
	}, ATTACHMENTS);
}

/** Width and height from a PNG's IHDR or a JPEG's SOF marker (what the bytes say, not what the plugin said). */
function imageSize(bytes) {
	if (bytes.length > 24 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.toString("ascii", 12, 16) === "IHDR") {
		return { type: "PNG", width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
	}
	if (bytes.length > 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
		for (let i = 2; i + 9 < bytes.length; ) {
			if (bytes[i] !== 0xff) return null;
			const marker = bytes[i + 1];
			if (marker === 0xff) {
				i++;
				continue;
			}
			const length = bytes.readUInt16BE(i + 2);
			// SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC).
			if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) return { type: "JPEG", height: bytes.readUInt16BE(i + 5), width: bytes.readUInt16BE(i + 7) };
			i += 2 + length;
		}
	}
	return null;
}
