import { Notice } from "obsidian";
import { t } from "../i18n";

/** Copies text and says so; a refused clipboard (permissions, no focus) gets a notice, not an error. */
export async function copyToClipboard(text: string): Promise<void> {
	try {
		await navigator.clipboard.writeText(text);
		new Notice(t("clipboard.copied"));
	} catch {
		new Notice(t("clipboard.failed"));
	}
}
