// The bytes an attached image is sent as: the file as it is when it is within the limits (the
// composer's attachments always are: they were scaled when attached), else scaled now (an image
// embedded in a note, sent as it is in the vault).
import { normalizePath, type App } from "obsidian";
import { headerSize } from "../../core/imageHeader";
import { planImage, sniffImageType } from "./imagePlan";
import { prepareImage } from "./downscale";
import { RefusedImagePath, vaultImagePath } from "../../core/imagePaths";

export async function imageForSend(app: App, path: string): Promise<{ bytes: Uint8Array; mediaType: string }> {
	// The path comes from a chat file, which may be synced or edited: only a path inside the vault is read.
	const vaultPath = vaultImagePath(path, app.vault.configDir);
	if (vaultPath === undefined) throw new RefusedImagePath(path);
	const bytes = new Uint8Array(await app.vault.adapter.readBinary(normalizePath(vaultPath)));
	const type = sniffImageType(bytes);
	if (type === undefined) throw new Error("not an image");
	const size = headerSize(type, bytes);
	if (size !== undefined && planImage(type, size, bytes.byteLength).asIs) return { bytes, mediaType: type };
	const prepared = await prepareImage(bytes);
	return { bytes: prepared.bytes, mediaType: prepared.mediaType };
}
