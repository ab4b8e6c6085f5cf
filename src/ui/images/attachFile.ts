// From a file the person gave (picked, pasted, dropped) to an attachment: checked, downscaled,
// saved in the chats folder's attachments. Refusals are messages in the person's language.
import type { App } from "obsidian";
import type { ImageRef } from "../../core/types";
import { t } from "../../i18n";
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
