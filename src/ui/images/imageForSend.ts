// The bytes an attached image is sent as: the file as it is when it is within the limits (the
// composer's attachments always are: they were scaled when attached), else scaled now (an image
// embedded in a note, sent as it is in the vault).
import { normalizePath, type App } from "obsidian";
import { headerSize } from "./imageHeader";
import { planImage, sniffImageType } from "./imagePlan";
import { prepareImage } from "./downscale";

export async function imageForSend(app: App, path: string): Promise<{ bytes: Uint8Array; mediaType: string }> {
	const bytes = new Uint8Array(await app.vault.adapter.readBinary(normalizePath(path)));
	const type = sniffImageType(bytes);
	if (type === undefined) throw new Error("not an image");
	const size = headerSize(type, bytes);
	if (size !== undefined && planImage(type, size, bytes.byteLength).asIs) return { bytes, mediaType: type };
	const prepared = await prepareImage(bytes);
	return { bytes: prepared.bytes, mediaType: prepared.mediaType };
}
