// The terminal chat's `@vault`: passages of a folder of notes, found for a message, sent as
// retrieved sources. The index behind it is the plugin's NoteIndex (src/context, the vault's lexical
// index) kept by scripts/nodeVault.ts, which the chat refreshes from disk before each @vault search;
// tests may hand in any index of the same shape.
import type { ContextSource } from "../src/headless";

/** What `@vault` needs of an index: NoteIndex's search. */
export interface PassageIndex {
	search(query: string, opts?: { limit?: number }): { id: string; name: string; score: number; text: string }[];
}

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
export function retrievedSources(index: PassageIndex, query: string, limit = VAULT_PASSAGES): ContextSource[] {
	const byNote = new Map<string, ContextSource>();
	for (const hit of index.search(query, { limit })) {
		const known = byNote.get(hit.id);
		if (known === undefined) byNote.set(hit.id, { id: hit.id, name: hit.name, text: hit.text, kind: "retrieved" });
		else known.text += `\n\n[…]\n\n${hit.text}`;
	}
	return [...byNote.values()];
}
