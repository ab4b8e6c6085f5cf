// What the engine reports during a turn, shown in the panel: status, warnings, the messages as they
// are saved, the prompt's cost and fits, and the server's real window when it is smaller.
import type { ToolCard } from "../../chat/toolCard";
import type { ChatMessage } from "../../core/types";
import { t } from "../../i18n";
import type { DiscoverHost } from "../host";
import type { ChatEvent } from "../ports";
import type { ContextBar } from "./ContextBar";
import { engineText } from "./engineText";
import { shownWarning, statusText } from "../engine/warningText";
import type { MessageList } from "./MessageList";
import type { StatusLine } from "./StatusLine";
import { useReportedWindow, windowOffer } from "./windowOffer";
import { budgetFor } from "../../settings/budgetFor";

export interface ChatEventTargets {
	host: DiscoverHost;
	status: StatusLine;
	list: MessageList;
	context: ContextBar;
	onMessage: (message: ChatMessage) => void;
	/** The chat's model: a window the server reports is saved as that model's own context size. */
	model?: () => string;
}

export function showChatEvent(e: ChatEvent, to: ChatEventTargets): void {
	switch (e.type) {
		case "status":
			to.status.set(e.code !== undefined ? statusText(e.code) : engineText(e.text));
			break;
		case "warning":
			showWarning(e, to.list);
			break;
		case "message":
			to.onMessage(e.message);
			break;
		case "prompt":
			to.context.showPrompt(e.estimatedTokens, e.budget, e.sources);
			break;
		case "window":
			offerWindow(e.reported, to);
			break;
		case "tool":
			to.list.showToolCard(e.card);
			showToolStatus(e.card, to.status);
			break;
		case "compacted":
		case "sourcesShed":
			break;
	}
}

/** While a call waits for the person or runs, the status line says so (not "Writing the answer…"). */
function showToolStatus(card: ToolCard, status: StatusLine): void {
	if (card.state === "waiting" && card.waitingFor !== "run") status.set(t("toolCard.waitingPermission"));
	else if (card.state === "running") status.set(t("toolCard.running"));
}

/** A warning in the person's language (by its code), the system's own words folded under "Details". */
function showWarning(e: Extract<ChatEvent, { type: "warning" }>, list: MessageList): void {
	const shown = shownWarning(e, engineText);
	list.showNote(shown.text, shown.detail);
}

/** The server's real window is smaller than the context size: offer to use it, in one click. */
function offerWindow(reported: number, to: ChatEventTargets): void {
	const model = to.model?.() ?? "";
	if (reported >= budgetFor(to.host.settings, model).maxPromptTokens) return;
	const offer = windowOffer(to.host.settings, reported, model);
	if (offer.action === undefined) to.list.showNote(offer.text);
	else to.list.showOffer(offer.text, offer.action, () => useReportedWindow(to.host, reported, model));
}
