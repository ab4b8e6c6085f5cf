// The budget of an inline edit. The instruction and the selection are never cut: the model must see
// all of what it is asked to rewrite, and the answer (the rewrite, about the selection's size again)
// needs room too. When they do not fit, the person is told both sizes, and nothing is sent.

export interface EditSizes {
	instructionTokens: number;
	selectionTokens: number;
	/** The model's context, less the system prompt and the safety margin. */
	budgetTokens: number;
}

export type EditFit = { fits: true; restTokens: number } | { fits: false; instructionTokens: number; selectionTokens: number; neededTokens: number; budgetTokens: number };

/** The rewrite is about as long as the selection, and a little more: room kept for it. */
export function answerRoom(selectionTokens: number): number {
	return Math.ceil(selectionTokens * 1.25) + 64;
}

/**
 * Whether the instruction, the selection and the room for the answer fit; when they do, how much is
 * left for the rest of the note and its links (fitted by relevance, as sources are).
 */
export function fitEdit(sizes: EditSizes): EditFit {
	const needed = sizes.instructionTokens + sizes.selectionTokens + answerRoom(sizes.selectionTokens);
	if (needed > sizes.budgetTokens) return { fits: false, instructionTokens: sizes.instructionTokens, selectionTokens: sizes.selectionTokens, neededTokens: needed, budgetTokens: sizes.budgetTokens };
	return { fits: true, restTokens: sizes.budgetTokens - needed };
}
