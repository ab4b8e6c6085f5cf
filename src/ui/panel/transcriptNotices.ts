// The notices at the end of the transcript, under the messages: an inline error with Retry, a
// quiet note, a note with one action. MessageList shows them in its tail.
import { setIcon } from "obsidian";
import type { Diagnosis } from "./errorDiagnosis";
import { setTextWithCode } from "../inlineCode";
import { t } from "../../i18n";
import { appendSaid } from "../saidDetails";

/** Where a notice goes, and what the list does once one is shown. */
export interface TranscriptTail {
	el: HTMLElement;
	scrollToEnd(): void;
	afterRender(): void;
}

/**
 * An inline error: its title, one message (the connection check's diagnosis replaces the advice
 * once it comes), Retry when it can help, and the provider's own words folded under "Details".
 */
export function showError(tail: TranscriptTail, diagnosis: Diagnosis, onRetry?: () => void): { setProbe(text: string): void } {
	clearErrors(tail.el);
	const el = tail.el.createDiv({ cls: "discover-chat-error", attr: { role: "alert" } });
	const title = el.createDiv({ cls: "discover-chat-error-title" });
	setIcon(title.createSpan({ cls: "discover-chat-error-icon" }), "alert-triangle");
	title.createSpan({ text: diagnosis.title });
	const message = el.createDiv({ cls: "discover-chat-error-message" });
	setTextWithCode(message, diagnosis.detail);
	if (diagnosis.said) {
		const details = el.createEl("details", { cls: "discover-chat-error-details" });
		details.createEl("summary", { text: t("error.detailsSummary") });
		setTextWithCode(details.createDiv({ cls: "discover-chat-error-said" }), diagnosis.said);
	}
	if (onRetry && diagnosis.retryable) {
		const retry = el.createEl("button", { cls: "discover-chat-retry", text: t("message.retry"), attr: { type: "button" } });
		retry.addEventListener("click", () => {
			clearErrors(tail.el);
			onRetry();
		});
	}
	tail.scrollToEnd();
	return {
		setProbe: (text: string) => {
			// No diagnosis (the check itself failed): the advice stands.
			setTextWithCode(message, text || diagnosis.detail);
			tail.afterRender();
		},
	};
}

/** A quiet line in the transcript (e.g. a warning from the engine); `said`: raw words, folded under "Details". */
export function showNote(tail: TranscriptTail, text: string, said?: string): void {
	if (said) {
		const note = tail.el.createDiv({ cls: ["discover-chat-note", "discover-chat-note-with-details"] });
		note.createDiv({ text });
		appendSaid(note, said);
	} else tail.el.createDiv({ cls: "discover-chat-note", text });
	tail.afterRender();
}

/** A note with one action, e.g. the server's real window with a button to use it. */
export function showOffer(tail: TranscriptTail, text: string, action: string, onAction: () => Promise<string>): HTMLElement {
	const el = tail.el.createDiv({ cls: ["discover-chat-note", "discover-chat-offer"] });
	const label = el.createSpan({ text });
	const button = el.createEl("button", { cls: "discover-chat-offer-action", text: action, attr: { type: "button" } });
	button.addEventListener("click", () => {
		button.disabled = true;
		onAction().then(
			(done) => {
				label.setText(done);
				button.remove();
			},
			() => (button.disabled = false),
		);
	});
	tail.afterRender();
	return el;
}

export function clearErrors(tailEl: HTMLElement): void {
	tailEl.querySelectorAll(".discover-chat-error").forEach((el) => el.remove());
}
