// The status bar's line while the vault index builds: "Indexing 41,200 of 100,000 notes", empty
// (and hidden) otherwise.
import { formatNumber, t } from "../i18n";

export interface IndexProgressView {
	done: number;
	total: number;
}

export function showIndexProgress(el: HTMLElement, progress: IndexProgressView | undefined): void {
	el.setText(progress ? t("status.indexing", { done: formatNumber(progress.done), total: formatNumber(progress.total) }) : "");
	el.toggleClass("discover-index-progress-idle", progress === undefined);
}
