// The words of Edit with Discover, through the catalogue (src/i18n/en.ts, "editor.*").
import { formatNumber, t } from "../../i18n";

export const EDIT_TEXT = {
	placeholder: (atCursor: boolean): string => (atCursor ? t("editor.placeholderCursor") : t("editor.placeholder")),
	send: (): string => t("editor.send"),
	stop: (): string => t("editor.stop"),
	close: (): string => t("editor.close"),
	accept: (): string => t("editor.accept"),
	reject: (): string => t("editor.reject"),
	acceptAll: (): string => t("editor.acceptAll"),
	rejectAll: (): string => t("editor.rejectAll"),
	stale: (): string => t("editor.stale"),
	streaming: (): string => t("editor.streaming"),
	noChange: (): string => t("editor.noChange"),
	tooLarge: (s: { instructionTokens: number; selectionTokens: number; neededTokens: number; budgetTokens: number }): string =>
		t("editor.tooLarge", { instruction: formatNumber(s.instructionTokens), selection: formatNumber(s.selectionTokens), needed: formatNumber(s.neededTokens), budget: formatNumber(s.budgetTokens) }),
	failed: (error: string): string => t("editor.failed", { error }),
	hunk: (n: number, total: number): string => t("editor.hunk", { n: formatNumber(n), total: formatNumber(total) }),
	keys: (): string => t("editor.keys"),
	review: (): string => t("editor.review"),
	busy: (): string => t("editor.busy"),
};
