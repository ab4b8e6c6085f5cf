// What a server or the system said, word for word, folded under "Details" in the person's language:
// raw words stay available without standing in for the message.
import { t } from "../i18n";

export function appendSaid(el: HTMLElement, said: string): HTMLDetailsElement {
	const details = el.createEl("details", { cls: "discover-chat-error-details" });
	details.createEl("summary", { text: t("error.detailsSummary") });
	details.createDiv({ cls: "discover-chat-error-said", text: said });
	return details;
}
