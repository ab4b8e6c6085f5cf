// @vitest-environment happy-dom
// Image paths in chat files. A chat file is synced and can be edited outside the
// plugin: an attachment reference naming `../../etc/passwd.png`, an absolute path or the config
// folder must not make the plugin read that file (and send it to the model) or show it. Such a
// reference is ignored with a notice; a reference inside the vault is read as before.
import { describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import { asObsidianApp, createTestApp } from "../obsidian/harness";
import { StubAdapter } from "../support/stubAdapter";
import { createChatRuntime } from "../../src/wiring/chatRuntime";
import type { DiscoverHost } from "../../src/ui/host";
import type { ChatEvent } from "../../src/chat/turnPrompt";
import type { ImageRef } from "../../src/core/types";
import { testSettings } from "../ui/fakes";
import { imageForSend } from "../../src/ui/images/imageForSend";
import { attachmentSrc } from "../../src/ui/images/attachmentStore";
import { vaultImagePath } from "../../src/core/imagePaths";

const be32 = (n: number): number[] => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...be32(13), 0x49, 0x48, 0x44, 0x52, ...be32(800), ...be32(600), 8, 6, 0, 0, 0]);
const GOOD = "Discover/Chats/attachments/diagram.png";

const HOSTILE = ["../../etc/passwd.png", "/etc/passwd.png", "C:/Windows/win.png", "C:\\Windows\\win.png", "\\\\server\\share\\x.png", "Notes/../../../x.png", "..\\..\\x.png", ".obsidian/plugins/discover/data.png", "file:///etc/passwd.png", "~/secret.png"];

describe("image paths in chat files", () => {
	it("a synced chat file naming a file outside the vault (or in the config folder) makes the plugin read nothing: the image is ignored with a notice", async () => {
		const app = await createTestApp();
		await app.vault.adapter.mkdir("Discover/Chats/attachments");
		await app.vault.adapter.writeBinary(GOOD, PNG.slice().buffer);
		const events: ChatEvent[] = [];
		const host: DiscoverHost = { app: asObsidianApp(app), settings: testSettings(), saveSettings: () => Promise.resolve() };
		const runtime = await createChatRuntime(host, (e) => events.push(e));
		runtime.chat.setAdapter(new StubAdapter({ reply: "Seen." }));
		await runtime.chat.newSession();
		const ref: ImageRef = { path: GOOD, mediaType: "image/png", width: 800, height: 600, bytes: PNG.byteLength };
		await runtime.chat.sendMessage("What is this?", { images: [ref] });
		await runtime.chat.flush();
		const id = runtime.chat.sessionId!;
		const file = (await app.vault.adapter.list("Discover/Chats/sessions")).files.find((f) => f.includes(id))!;
		const text = await app.vault.adapter.read(file);
		expect(text).toContain(GOOD);
		for (const hostile of HOSTILE) {
			// What another device (or anyone with the synced folder) writes into the chat file.
			await app.vault.adapter.write(file, text.split(JSON.stringify(GOOD)).join(JSON.stringify(hostile)));
			const reads = vi.spyOn(app.vault.adapter, "readBinary");
			events.length = 0;
			await runtime.chat.loadSession(id);
			await runtime.chat.sendMessage("And now?");
			const read = reads.mock.calls.map((c) => c[0]);
			reads.mockRestore();
			expect(read.filter((p) => p.includes("passwd") || p.includes("win") || p.includes("secret") || p.includes("x.png") || p.startsWith(".obsidian")), hostile).toEqual([]);
			expect(events.some((e) => e.type === "warning" && e.code === "image_path_refused"), hostile).toBe(true);
		}
	});

	it("the reader refuses such a path before touching the disk, and the message shows no image for it", async () => {
		const app = await createTestApp();
		const reads = vi.spyOn(app.vault.adapter, "readBinary");
		const resources = vi.spyOn(app.vault.adapter, "getResourcePath");
		for (const hostile of HOSTILE) {
			await expect(imageForSend(asObsidianApp(app), hostile), hostile).rejects.toThrow();
			expect(attachmentSrc(asObsidianApp(app), { path: hostile, mediaType: "image/png", width: 1, height: 1, bytes: 1 }), hostile).toBeUndefined();
		}
		expect(reads).not.toHaveBeenCalled();
		expect(resources).not.toHaveBeenCalled();
	});

	it("property: an accepted path is vault-relative, has no `..`, no drive or scheme, and is outside the config folder", () => {
		const segment = fc.oneof(fc.constantFrom("..", ".", "", "~", "C:", ".obsidian", ".OBSIDIAN", "a", "Notes", "x.png", "file:", " .. ", "..."), fc.string({ maxLength: 6 }));
		fc.assert(
			fc.property(fc.array(segment, { maxLength: 6 }), fc.constantFrom("/", "\\"), fc.boolean(), (segments, sep, lead) => {
				const raw = (lead ? sep : "") + segments.join(sep);
				const path = vaultImagePath(raw, ".obsidian");
				if (path === undefined) return;
				const parts = path.split("/");
				expect(path.startsWith("/")).toBe(false);
				expect(parts.some((p) => p.trim() === ".." || p === "" || p === ".")).toBe(false);
				expect(path.includes("\\")).toBe(false);
				expect(/^[A-Za-z][A-Za-z0-9+.-]*:/.test(path)).toBe(false);
				expect(parts[0]?.toLowerCase().replace(/[. ]+$/, "")).not.toBe(".obsidian");
			}),
			{ numRuns: 2000 },
		);
		expect(vaultImagePath("Discover/Chats/attachments/a.png", ".obsidian")).toBe("Discover/Chats/attachments/a.png");
		expect(vaultImagePath("Notes//img/./a.png", ".obsidian")).toBe("Notes/img/a.png");
	});
});
