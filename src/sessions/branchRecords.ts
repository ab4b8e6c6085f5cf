// The two records branches add to a session file (see FORMAT.md, "Branches"). Both are only ever
// appended: a branch left behind, a turn deleted, stays in the file and can be found again.
//
// Versions before branches read these lines as "unknown record type": they warn once, keep the
// line (a rewrite carries it as a `corrupt` record) and show every message of every branch in
// file order, as one long chat, hidden turns included. Nothing is lost either way.

/** Makes the branch ending at `leaf` the active one (null: the empty branch, before the first message). */
export interface SwitchRecord {
	type: "switch";
	leaf: string | null;
	at: string;
}

/** Hides the turn starting at user message `id` from the active branch (`hidden: false` brings it back); on a summary's id, drops that summary. */
export interface HideRecord {
	type: "hide";
	id: string;
	hidden: boolean;
	at: string;
}

/** Validates a `switch` or `hide` line; a string says why it is not one. */
export function asBranchRecord(value: Record<string, unknown>): SwitchRecord | HideRecord | string {
	const { at } = value;
	if (typeof at !== "string") return `bad ${String(value.type)} record`;
	if (value.type === "switch") {
		const { leaf } = value;
		if (leaf !== null && (typeof leaf !== "string" || leaf === "")) return "bad switch record";
		return { type: "switch", leaf, at };
	}
	const { id, hidden } = value;
	if (typeof id !== "string" || id === "" || typeof hidden !== "boolean") return "bad hide record";
	return { type: "hide", id, hidden, at };
}
