// The sentences under an answer's details about requests beside its own: the summary of earlier
// messages its turn made (apart from the answer's tokens, in its cost and the chat's total) and
// the requests the server refused as too long before the retry that answered.
import type { AnswerStats } from "../../core/types";
import { formatNumber, t } from "../../i18n";

/** The notes for `stats`, in order; none for an answer whose turn made only its own requests. */
export function answerInfoNotes(stats: AnswerStats): string[] {
	const notes: string[] = [];
	const summary = stats.summary;
	if (summary !== undefined) {
		// Estimated when any summary request's count was: the same rule as the answer's own rows.
		const key = summary.reported.prompt && summary.reported.answer ? "stats.summaryReported" : "stats.summaryEstimated";
		notes.push(t(key, { prompt: formatNumber(summary.promptTokens), answer: formatNumber(summary.answerTokens) }));
	}
	if (stats.refused !== undefined && stats.refused > 0) notes.push(t("stats.refused", { count: stats.refused }));
	return notes;
}
