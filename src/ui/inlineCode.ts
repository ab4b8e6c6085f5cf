/**
 * Sets `text` as `el`'s content, with `code` spans as <code> elements: diagnoses name commands
 * (`ollama serve`) that read better as code than with their backticks. Text only, never HTML, so
 * words from a server cannot become markup.
 */
export function setTextWithCode(el: HTMLElement, text: string): void {
	el.empty();
	const pattern = /`([^`\n]+)`/g;
	let at = 0;
	for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
		if (m.index > at) el.appendText(text.slice(at, m.index));
		el.createEl("code", { text: m[1] });
		at = m.index + m[0].length;
	}
	if (at < text.length) el.appendText(text.slice(at));
}
