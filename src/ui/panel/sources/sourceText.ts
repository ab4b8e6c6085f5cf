// The words the sources UI shows, through the catalogue (src/i18n/en.ts, "sources.*").
import type { SourceFit } from "../../../core/types";
import { formatNumber, formatPercent, t } from "../../../i18n";

export const SOURCE_TEXT = {
	suggestions: (): string => t("sources.suggestions"),
	/** Typed, not translated: it is what the person types. */
	vaultLabel: "@vault",
	vaultDetail: (): string => t("sources.vaultDetail"),
	vaultChip: (): string => t("sources.vaultChip"),
	vaultOff: (): string => t("sources.vaultOff"),
	remove: (name: string): string => t("sources.remove", { name }),
	open: (name: string): string => t("sources.open", { name }),
	notes: (shown: number, total: number): string =>
		total > shown ? t("sources.firstNotes", { shown: formatNumber(shown), total: formatNumber(total) }) : t("sources.notes", { count: total }),
	alias: (name: string): string => t("sources.aliasOf", { name }),
	missing: (): string => t("sources.missing"),
	/** A canvas in the `@` list: "Canvas", or "Canvas in Maps/". */
	canvas: (folder: string): string => (folder === "" ? t("sources.canvas") : t("sources.canvasIn", { folder })),
	/** A PDF in the `@` list: "PDF", or "PDF in Papers/". */
	pdf: (folder: string): string => (folder === "" ? t("sources.pdf") : t("sources.pdfIn", { folder })),
	searchedOnSend: (): string => t("sources.searchedOnSend"),
	sourcesLine: (count: number): string => t("sources.line", { count }),
	indexedInPart: (count: number, overMb: number): string => t("sources.indexedInPart", { count, size: formatNumber(overMb) }),
	tokensOf: (sent: number, total: number): string => t("sources.tokensOf", { sent: formatNumber(sent), total: formatNumber(total) }),
	noteChanged: (name: string): string => t("sources.noteChanged", { name }),
	noteGone: (name: string): string => t("sources.noteGone", { name }),
	selectionNotKept: (): string => t("sources.selectionNotKept"),
	nothingSent: (): string => t("sources.nothingSent"),
};

/** "Whole", "Excerpts, 34%", "Not included": how much of a source fits. */
export function fitLabel(fit: Pick<SourceFit, "fit" | "sentTokens" | "totalTokens">): string {
	if (fit.fit === "whole") return t("sources.whole");
	if (fit.fit === "none") return t("sources.none");
	// Never 0% or 100% for excerpts: they are neither nothing nor the whole.
	const percent = fit.totalTokens > 0 ? Math.min(99, Math.max(1, Math.round((fit.sentTokens / fit.totalTokens) * 100))) : 1;
	return t("sources.excerpts", { percent: formatPercent(percent) });
}
