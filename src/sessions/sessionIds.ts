import { TMP_SUFFIX } from "./atomicWrite";
import { utf8Length } from "./fileText";

export { TMP_SUFFIX };

export const SESSIONS_DIR = "sessions";
export const EXT = ".jsonl";
/** Letters of a writer's tag in its temporary file names. */
const TAG_LENGTH = 6;
/**
 * Most file systems (ext4, APFS, NTFS, FAT's long names) allow 255 bytes per file name, and a
 * rewrite needs "<id>.jsonl.<tag>.tmp": an id longer than this fits no file system, so it is
 * refused before the store sees it.
 */
export const MAX_ID_BYTES = 255 - utf8Length(`${EXT}.${"x".repeat(TAG_LENGTH)}${TMP_SUFFIX}`);

/** A random tag for one writer's temporary files, so two writers never share one. */
export function writerTag(random: () => number = Math.random): string {
	let tag = "";
	for (let i = 0; i < TAG_LENGTH; i++) tag += Math.floor(random() * 36).toString(36);
	return tag;
}

/** The temporary file a writer tagged `tag` rewrites session `path` through. */
export function tempPathOf(path: string, tag: string): string {
	return `${path}.${tag}${TMP_SUFFIX}`;
}

/**
 * The session id of a temporary file name ("<id>.jsonl.tmp" from earlier versions, or
 * "<id>.jsonl.<tag>.tmp"), or undefined when the name is not one.
 */
export function idOfTempName(name: string): string | undefined {
	if (!name.endsWith(TMP_SUFFIX)) return undefined;
	let rest = name.slice(0, -TMP_SUFFIX.length);
	const tagged = new RegExp(`\\.[0-9a-z]{${TAG_LENGTH}}$`).exec(rest);
	if (!rest.endsWith(EXT) && tagged !== null) rest = rest.slice(0, tagged.index);
	if (!rest.endsWith(EXT)) return undefined;
	const id = rest.slice(0, -EXT.length);
	return isSessionId(id) ? id : undefined;
}
/** How much of a refused id an error message quotes. */
const QUOTED_CHARS = 40;

/**
 * Ids are file names. Refuse what could leave the folder (separators, a leading dot) but accept
 * other names, so a sync tool's conflict copy ("<id> (conflicted copy).jsonl") is listed, not hidden.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const ID_PATTERN = /^(?!\.)[^/\\\u0000-\u001f]+$/;

/** Why `id` cannot name a session file, or undefined when it can. */
export function idProblem(id: string): string | undefined {
	if (typeof id !== "string" || id === "") return "an empty id";
	// Every UTF-16 unit takes at least one byte: a long string is refused without measuring it.
	if (id.length > MAX_ID_BYTES) return `too long for a file name: ${id.length} characters, at most ${MAX_ID_BYTES} bytes`;
	const bytes = utf8Length(id);
	if (bytes > MAX_ID_BYTES) return `too long for a file name: ${bytes} bytes in UTF-8, at most ${MAX_ID_BYTES}`;
	if (!ID_PATTERN.test(id)) return "not a valid session id";
	return undefined;
}

export function isSessionId(id: string): boolean {
	return idProblem(id) === undefined;
}

/** `id` for a message: cut to a few dozen characters (never inside a surrogate pair), control characters escaped. */
export function quoteId(id: string): string {
	const chars = Array.from(id.slice(0, QUOTED_CHARS * 2 + 1));
	const cut = chars.length > QUOTED_CHARS ? chars.slice(0, QUOTED_CHARS).join("") + "…" : chars.join("");
	return JSON.stringify(cut).slice(1, -1);
}

export class SessionNotFoundError extends Error {
	readonly sessionId: string;
	constructor(sessionId: string, why?: string) {
		super(why === undefined ? `Session not found: ${quoteId(sessionId)}` : `Session not found: ${quoteId(sessionId)} (${why})`);
		this.name = "SessionNotFoundError";
		this.sessionId = sessionId;
	}
}

/** The file of session `id`; throws a short SessionNotFoundError for an id no file can have. */
export function sessionPath(id: string): string {
	const problem = idProblem(id);
	if (problem !== undefined) throw new SessionNotFoundError(id, problem);
	return `${SESSIONS_DIR}/${id}${EXT}`;
}
