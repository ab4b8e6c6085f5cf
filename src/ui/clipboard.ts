import { Notice } from "obsidian";

/** Copies text and says so; a refused clipboard (permissions, no focus) gets a notice, not an error. */
export async function copyToClipboard(text: string): Promise<void> {
	try {
		await navigator.clipboard.writeText(text);
		new Notice("Copied to clipboard");
	} catch {
		new Notice("Couldn't copy to the clipboard");
	}
}
