// The terminal chat's `@vault`: passages of a folder of notes, found for a message, sent as
// retrieved sources. The index behind it is the plugin's NoteIndex (src/context, the vault's lexical
// index); tests may hand in any index of the same shape.
import { readdir, readFile } from "node:fs/promises";
import { basename, join, relative, sep } from "node:path";
import { NoteIndex, type ContextSource } from "../src/headless";

/** What `@vault` needs of an index: NoteIndex's upsert and search. */
export interface PassageIndex {
	upsert(id: string, text: string, name?: string): void;
	search(query: string, opts?: { limit?: number }): { id: string; name: string; score: number; text: string }[];
}

/** Makes an empty index (undefined: none, and @vault is sent without vault passages). */
export const createPassageIndex: () => PassageIndex | undefined = () => new NoteIndex();

/** How many passages `@vault` adds to a message. */
export const VAULT_PASSAGES = 8;

const MENTION = /(^|\s)@vault(?=$|[\s.,;:!?])/iu;

export function mentionsVault(text: string): boolean {
	return MENTION.test(text);
}

/** The message without its `@vault` mentions: what the index is asked. */
export function vaultQuery(text: string): string {
	return text.replace(new RegExp(MENTION.source, "giu"), "$1").trim();
}

/**
 * The passages found for `query` as sources of kind "retrieved": one per note (its passages in
 * the order found, joined with "[…]"), named by the note, with its path inside the vault as id.
 */
export function retrievedSources(index: Pick<PassageIndex, "search">, query: string, limit = VAULT_PASSAGES): ContextSource[] {
	const byNote = new Map<string, ContextSource>();
	for (const hit of index.search(query, { limit })) {
		const known = byNote.get(hit.id);
		if (known === undefined) byNote.set(hit.id, { id: hit.id, name: hit.name, text: hit.text, kind: "retrieved" });
		else known.text += `\n\n[…]\n\n${hit.text}`;
	}
	return [...byNote.values()];
}

async function markdownFiles(dir: string): Promise<string[]> {
	const found: string[] = [];
	for (const entry of await readdir(dir, { withFileTypes: true })) {
		// Hidden folders (.obsidian, .trash, .git) are not notes.
		if (entry.name.startsWith(".")) continue;
		const path = join(dir, entry.name);
		if (entry.isDirectory()) found.push(...(await markdownFiles(path)));
		else if (entry.isFile() && entry.name.toLowerCase().endsWith(".md")) found.push(path);
	}
	return found;
}

/** Indexes every Markdown note under `dir` (ids are vault paths with "/"), or undefined when there is no index to fill. */
export async function indexVault(dir: string, create: () => PassageIndex | undefined = createPassageIndex): Promise<{ index: PassageIndex; notes: number } | undefined> {
	const index = create();
	if (index === undefined) return undefined;
	const files = await markdownFiles(dir);
	for (const file of files) {
		const id = relative(dir, file).split(sep).join("/");
		index.upsert(id, await readFile(file, "utf8"), basename(file, ".md"));
	}
	return { index, notes: files.length };
}
