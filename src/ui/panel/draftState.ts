// The input's draft outlives the panel: closing the sidebar or moving the panel must not lose what
// was typed. Kept in memory per plugin instance (writing data.json on each key would be too much).
const drafts = new WeakMap<object, string>();

export function savedDraft(owner: object): string {
	return drafts.get(owner) ?? "";
}

export function saveDraft(owner: object, text: string): void {
	drafts.set(owner, text);
}
