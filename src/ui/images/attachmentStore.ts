// Attached images as vault files: saved under the chats folder's `attachments/` when attached (so
// the chat's JSONL only names them, and an export can embed them), shown from the vault (never a
// network URL), and removed again when the person takes one off before sending.
import { normalizePath, type App } from "obsidian";
import type { ImageRef } from "../../core/types";
import { attachmentName } from "./imagePlan";
import type { PreparedImage } from "./downscale";
import { vaultImagePath } from "../../core/imagePaths";

export function attachmentsFolder(chatsFolder: string): string {
	return normalizePath(`${chatsFolder}/attachments`);
}

/** Saves a prepared image under a name not yet taken, and returns its reference. */
export async function saveAttachment(app: App, chatsFolder: string, image: PreparedImage, originalName: string, now = new Date()): Promise<ImageRef> {
	const adapter = app.vault.adapter;
	const folder = attachmentsFolder(chatsFolder);
	if (!(await adapter.exists(folder))) await adapter.mkdir(folder);
	const name = attachmentName(originalName, image.mediaType, now);
	const dot = name.lastIndexOf(".");
	let path = normalizePath(`${folder}/${name}`);
	for (let n = 2; await adapter.exists(path); n++) path = normalizePath(`${folder}/${name.slice(0, dot)} ${n}${name.slice(dot)}`);
	// A copy that owns its whole buffer: writeBinary takes an ArrayBuffer, not a view.
	await adapter.writeBinary(path, image.bytes.slice().buffer);
	return { path, mediaType: image.mediaType, width: image.width, height: image.height, bytes: image.bytes.byteLength };
}

/** Takes back an attachment that was never sent. */
export async function discardAttachment(app: App, ref: ImageRef): Promise<void> {
	const path = normalizePath(ref.path);
	if (await app.vault.adapter.exists(path)) await app.vault.adapter.remove(path);
}

/**
 * The image's address inside the app (a vault resource), for an <img>; undefined when the reference
 * (read from a chat file) names no path inside the vault: then nothing is shown for it.
 */
export function attachmentSrc(app: App, ref: ImageRef): string | undefined {
	const path = vaultImagePath(ref.path, app.vault.configDir);
	return path === undefined ? undefined : app.vault.adapter.getResourcePath(normalizePath(path));
}
