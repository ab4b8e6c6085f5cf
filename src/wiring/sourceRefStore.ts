// Where each chat's attached sources (references to notes, folders, tags, `@vault`; never their
// text) are kept: `chat-sources.json` in the plugin's folder, `{v: 1, chats: {<chat id>: refs}}`.
// A chat without an entry has none; a damaged file is read as empty (and replaced on the next save).
import type { DataAdapter } from "obsidian";
import type { SourceRefStore } from "../ui/ports";
import { readPluginFile, writeAtomically } from "./pluginFile";

export const SOURCE_REFS_FILE = "chat-sources.json";
const VERSION = 1;

type Saved = { v: number; chats: Record<string, unknown[]> };

export function pluginSourceRefStore(adapter: DataAdapter, dir: string): SourceRefStore {
	const path = `${dir}/${SOURCE_REFS_FILE}`;
	let data: Saved | undefined;
	let writing: Promise<void> = Promise.resolve();
	const read = async (): Promise<Saved> => {
		if (data) return data;
		let parsed: unknown;
		try {
			parsed = JSON.parse((await readPluginFile(adapter, path)) ?? "null");
		} catch {
			parsed = null;
		}
		const ok = typeof parsed === "object" && parsed !== null && (parsed as Saved).v === VERSION && typeof (parsed as Saved).chats === "object";
		data = ok ? (parsed as Saved) : { v: VERSION, chats: {} };
		return data;
	};
	return {
		async load(sessionId) {
			return (await read()).chats[sessionId] ?? [];
		},
		async save(sessionId, refs) {
			const saved = await read();
			if (refs.length === 0) delete saved.chats[sessionId];
			else saved.chats[sessionId] = refs;
			// One write at a time, each with everything known by then.
			writing = writing.catch(() => undefined).then(() => writeAtomically(adapter, path, JSON.stringify(saved)));
			await writing;
		},
	};
}
