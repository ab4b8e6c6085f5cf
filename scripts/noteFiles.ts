// The terminal chat's --note files, as they are on disk at each message: a note the person edits
// (in Obsidian, say) while chatting is sent with its new text at the next message. Each send stats
// every note and reads again only one whose stamp (mtime, ctime, size, inode) moved. A note deleted or
// moved away is left out with a line saying so, and the chat goes on; if it comes back it is
// sent again.
import { readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import type { ContextSource } from "../src/headless";
import { stampOf } from "./vaultWalk";

interface NoteFile {
	/** As given on the command line: the source's id, and what the lines name. */
	path: string;
	text: string;
	stamp: string;
	/** Why it is left out now (deleted, unreadable); undefined while it is sent. */
	missing?: string;
}

const why = (err: unknown): string => {
	const code = (err as { code?: unknown } | null)?.code;
	if (code === "ENOENT") return "it was deleted or moved";
	if (code === "EACCES" || code === "EPERM") return "it cannot be read (permission denied)";
	if (code === "EISDIR") return "it is a folder now";
	return `it cannot be read (${err instanceof Error ? err.message : String(err)})`;
};

export class NoteFiles {
	private constructor(
		private readonly files: NoteFile[],
		/** Prints one line about a note that changed, went missing or came back. */
		private readonly say: (line: string) => void,
	) {}

	/** Reads every note once; a note that cannot be read at start is an error naming it (bad input). */
	static async open(paths: readonly string[], say: (line: string) => void): Promise<NoteFiles> {
		const files: NoteFile[] = [];
		for (const path of paths) {
			try {
				const info = await stat(path);
				files.push({ path, text: await readFile(path, "utf8"), stamp: stampOf(info) });
			} catch (err) {
				const notFound = (err as { code?: unknown } | null)?.code === "ENOENT";
				throw new Error(`--note ${path}: ${notFound ? "there is no such file" : why(err)}.`);
			}
		}
		return new NoteFiles(files, say);
	}

	/** The notes as sources of kind "note", read again where the disk changed; missing ones left out. */
	async sources(): Promise<ContextSource[]> {
		for (const file of this.files) await this.update(file);
		return this.files.filter((f) => f.missing === undefined).map((f) => ({ id: f.path, name: basename(f.path), text: f.text, kind: "note" }));
	}

	private async update(file: NoteFile): Promise<void> {
		try {
			const info = await stat(file.path);
			const stamp = stampOf(info);
			if (stamp === file.stamp && file.missing === undefined) return;
			// Read before taking the stamp as seen: a failed read leaves it to be tried again.
			const text = await readFile(file.path, "utf8");
			const cameBack = file.missing !== undefined;
			const changed = text !== file.text;
			file.text = text;
			file.stamp = stamp;
			file.missing = undefined;
			if (cameBack) this.say(`(--note ${file.path} is back: it is sent again${changed ? ", as it is now" : ""})`);
			else if (changed) this.say(`(--note ${file.path} changed on disk: sending it as it is now)`);
		} catch (err) {
			const reason = why(err);
			if (file.missing !== reason) this.say(`(--note ${file.path}: ${reason}; messages are sent without it until it is back)`);
			file.missing = reason;
		}
	}
}
