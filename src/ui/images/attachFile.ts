// From a file the person gave (picked, pasted, dropped) to an attachment: checked, downscaled,
// saved in the chats folder's attachments. Refusals are messages in the person's language.
import type { App } from "obsidian";
import type { ImageRef, PromptImage } from "../../core/types";
import { t } from "../../i18n";
import { fromBase64 } from "../../core/base64";
import { saveAttachment } from "./attachmentStore";
import { ImageRejected, prepareImage } from "./downscale";

const REFUSAL = { unsupported: "composer.imageNotSupported", unreadable: "composer.imageUnreadable", tooLarge: "composer.imageTooLarge" } as const;

export async function attachImageFile(app: App, chatsFolder: string, file: File): Promise<ImageRef> {
	const name = file.name || "image";
	try {
		const prepared = await prepareImage(new Uint8Array(await file.arrayBuffer()));
		return await saveAttachment(app, chatsFolder, prepared, name);
	} catch (err) {
		if (err instanceof ImageRejected) throw new Error(t(REFUSAL[err.reason], { name }));
		throw err;
	}
}

/**
 * An image a tool's result carried (base64, as an MCP server sends it) as an attachment: checked and
 * scaled like one the person attached, then saved in the chats folder's attachments. A refusal throws
 * (the engine keeps the image described in the result's text).
 */
export async function attachToolImage(app: App, chatsFolder: string, image: PromptImage, name: string): Promise<ImageRef> {
	return saveAttachment(app, chatsFolder, await prepareImage(fromBase64(image.data)), name);
}
