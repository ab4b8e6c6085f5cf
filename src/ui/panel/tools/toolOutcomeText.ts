// What a call's result says to the model ("The person stopped the chat before this call ran.") is
// written about the person; shown to the person it reads in their words and language ("You stopped
// the chat before this ran."). Any other text (a tool's own result or error) passes as is.
import { declined, STOPPED_BEFORE_RUN, STOPPED_WHILE_RUNNING } from "../../../chat/toolRound";
import { t } from "../../../i18n";

/** The engine's text for a declined call (src/chat/toolRound.ts), with or without the person's reason. */
const DECLINED = declined(undefined);
const DECLINED_WHY = declined("?").slice(0, -1);

export function outcomeForPerson(text: string): string {
	if (text === STOPPED_BEFORE_RUN) return t("toolCard.stoppedBeforeRun");
	if (text === STOPPED_WHILE_RUNNING) return t("toolCard.stoppedWhileRunning");
	if (text === DECLINED) return t("toolCard.declined");
	if (text.startsWith(DECLINED_WHY)) return t("toolCard.declinedWhy", { reason: text.slice(DECLINED_WHY.length) });
	return text;
}
