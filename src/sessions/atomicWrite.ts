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
 * When `path` is missing but `path.tmp` exists, a rewrite was interrupted after the old file was
 * removed (stores whose rename cannot replace): the temporary file is complete, so finish the
 * move. True when it did.
 */
export async function finishInterruptedReplace(store: FileStore, path: string): Promise<boolean> {
	const temp = path + TMP_SUFFIX;
	if (!(await store.exists(temp))) return false;
	if (store.rename !== undefined) await store.rename(temp, path);
	else {
		await store.write(path, await store.read(temp));
		await store.remove(temp);
	}
	return true;
}
