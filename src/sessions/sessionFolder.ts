import { finishInterruptedReplace } from "./atomicWrite";
import { EXT, idOfTempName, isSessionId, quoteId, SESSIONS_DIR, sessionPath } from "./sessionIds";
import type { FileStore } from "./store";
import type { WarningListener } from "../core/notices";

/** A stamp no file has: the file is missing. */
const MISSING = "missing";

export interface Stamped {
	stamp: string;
	size: number | undefined;
}

/**
 * A file's stamp, "size:mtime": another writer's change alters it. Stores without stat get the
 * stamp "" (nothing to compare), a missing file a stamp no file has.
 */
export async function fileStamp(store: FileStore, path: string): Promise<Stamped> {
	if (store.stat === undefined) return { stamp: "", size: undefined };
	const stat = await store.stat(path);
	return stat === null ? { stamp: MISSING, size: undefined } : { stamp: `${stat.size}:${stat.mtime}`, size: stat.size };
}

/**
 * Finishes an interrupted rewrite of a missing session file from its temporary file (looked for in
 * `names`, or the folder); false when there is none.
 */
export async function recoverTemp(store: FileStore, warn: WarningListener, id: string, names?: readonly string[]): Promise<boolean> {
	const temp = (names ?? (await store.list(SESSIONS_DIR))).find((name) => idOfTempName(name) === id);
	if (temp === undefined) return false;
	await finishInterruptedReplace(store, `${SESSIONS_DIR}/${temp}`, sessionPath(id));
	warn(`Session ${quoteId(id)}: finished a rewrite that was interrupted.`, { code: "session_rewrite_finished", params: { id } });
	return true;
}

/** The sessions in the folder, after clearing away or finishing the temporary files of unfinished writes. */
export async function sessionIdsInFolder(store: FileStore, warn: WarningListener): Promise<string[]> {
	const names = new Set(await store.list(SESSIONS_DIR));
	for (const name of names) {
		const id = idOfTempName(name);
		if (id === undefined) continue;
		// Next to its session file, a temporary file is an unfinished write (or another
		// writer's, which then finds it gone and starts its rewrite over).
		if (names.has(id + EXT)) await store.remove(`${SESSIONS_DIR}/${name}`);
		else if (await recoverTemp(store, warn, id, [name])) names.add(id + EXT);
	}
	return [...names].filter((n) => n.endsWith(EXT)).map((n) => n.slice(0, -EXT.length)).filter(isSessionId);
}
