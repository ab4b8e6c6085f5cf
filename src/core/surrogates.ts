// Where a cut of a string may fall: never between the halves of a surrogate pair (an emoji, a rare
// CJK character), or each half becomes U+FFFD. A lone half is no pair: a cut beside it splits nothing.

/** True when a cut at `at` would fall between a high surrogate and the low one that completes it. */
export function splitsPair(text: string, at: number): boolean {
	if (at <= 0 || at >= text.length) return false;
	const before = text.charCodeAt(at - 1);
	const after = text.charCodeAt(at);
	return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}
