// The engine speaks English (its texts also reach scripts and the terminal). The progress lines and
// notes it sends the panel are a known few: shown in the person's language; any other passes as is.
import { t, type PlainKey } from "../../i18n";

const KNOWN: Record<string, PlainKey> = {
	"Summarizing earlier messages…": "status.summarizing",
	"Continuing conversation…": "status.continuing",
	"The model could not summarize earlier messages, so they were shortened instead.": "note.summaryFallback",
	// TOOLS_UNSUPPORTED_WARNING (src/chat/toolLoop.ts), said once per chat.
	"This model can't use tools; answering without them": "note.toolsUnsupported",
};

export function engineText(text: string): string {
	const key = KNOWN[text];
	return key ? t(key) : text;
}
