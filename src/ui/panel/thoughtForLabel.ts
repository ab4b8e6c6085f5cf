// A thinking block's label in the person's language: how long the model thought ("Thought for 12 s").
// The engine's thoughtFor says the same in English for exported notes.
import { t } from "../../i18n";

export function thoughtForLabel(ms: number | undefined): string {
	if (ms === undefined || !Number.isFinite(ms) || ms < 0) return t("thinking.label");
	// Under a second reads as a second: "0 s" would look like nothing happened.
	const total = Math.max(1, Math.round(ms / 1000));
	if (total < 60) return t("thinking.seconds", { seconds: total });
	const minutes = Math.floor(total / 60);
	const seconds = total % 60;
	return seconds === 0 ? t("thinking.minutes", { minutes }) : t("thinking.minutesSeconds", { minutes, seconds });
}
