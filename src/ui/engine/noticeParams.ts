// Reading a notice's parameters for t(): the engine sends plain values, the catalogue fills them in.
import type { NoticeParams } from "../../core/notices";
import { PROVIDERS, type ProviderName } from "../../providers/types";
import { t } from "../../i18n";

/** A parameter as text or number (t() writes numbers in the person's locale); "" when missing. */
export function param(params: NoticeParams | undefined, name: string): string | number {
	const value = params?.[name];
	return value === undefined ? "" : value;
}

/** A count parameter (plural forms need a number). */
export function count(params: NoticeParams | undefined, name: string): number {
	const value = Number(params?.[name]);
	return Number.isFinite(value) ? value : 0;
}

/** The provider a notice names; Ollama when it names none it knows. */
export function providerOf(params: NoticeParams | undefined): ProviderName {
	const value = params?.provider;
	return (PROVIDERS as readonly unknown[]).includes(value) ? (value as ProviderName) : "ollama";
}

/** The provider's name in the person's language. */
export function providerLabel(params: NoticeParams | undefined): string {
	const labels: Record<ProviderName, string> = { ollama: t("provider.ollama"), openai: t("provider.openai"), anthropic: t("provider.anthropic") };
	return labels[providerOf(params)];
}
