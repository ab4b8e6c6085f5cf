/** Writes `text` with each case-insensitive occurrence of `query` in a <mark>, as text nodes only. */
export function appendHighlighted(el: HTMLElement, text: string, query: string): void {
	if (query === "") {
		el.setText(text);
		return;
	}
	const lower = text.toLowerCase();
	const needle = query.toLowerCase();
	// Some characters change length when lowercased; then offsets would not line up.
	if (lower.length !== text.length || needle.length !== query.length) {
		el.setText(text);
		return;
	}
	let at = 0;
	for (let i = lower.indexOf(needle); i >= 0; i = lower.indexOf(needle, at)) {
		if (i > at) el.appendText(text.slice(at, i));
		el.createEl("mark", { cls: "discover-chat-history-match", text: text.slice(i, i + needle.length) });
		at = i + needle.length;
	}
	if (at < text.length) el.appendText(text.slice(at));
}
