import type { FileStore } from "./store";

/** Suffix of the temporary file a rewrite goes through. */
export const TMP_SUFFIX = ".tmp";

/**
 * Replaces `path` with `text` through `path.tmp` and a rename, so a crash leaves the old or the
 * new file. Without rename support the file is written in place.
 */
export async function replaceFile(store: FileStore, path: string, text: string): Promise<void> {
	if (store.rename === undefined) return store.write(path, text);
	await store.write(path + TMP_SUFFIX, text);
	await store.rename(path + TMP_SUFFIX, path);
}

/**
 * When `path` is missing but a temporary file of a rewrite (`temp`) exists, the rewrite was
 * interrupted after the old file was removed (stores whose rename cannot replace): the temporary
 * file is complete, so finish the move.
 */
export async function finishInterruptedReplace(store: FileStore, temp: string, path: string): Promise<void> {
	if (store.rename !== undefined) await store.rename(temp, path);
	else {
		// As bytes when the store can: a line that is not UTF-8 must survive the copy.
		if (store.readBytes !== undefined && store.writeBytes !== undefined) await store.writeBytes(path, await store.readBytes(temp));
		else await store.write(path, await store.read(temp));
		await store.remove(temp);
	}
}
