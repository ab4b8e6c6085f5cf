// A connection test's finding in the person's language, from its code (providers/connectionCodes.ts).
// The server's own words stay apart (`said`), for a folded "Details".
import type { NoticeParams } from "../../core/notices";
import type { ConnectionCode } from "../../providers/connectionCodes";
import { OLLAMA_ORIGINS_FIX } from "../../providers/classify";
import type { ConnectionDiagnosis, ProviderName } from "../../providers/types";
import { t } from "../../i18n";
import { param, providerLabel, providerOf } from "./noticeParams";

type Render = (p: NoticeParams | undefined) => string;

const UNREACHABLE: Record<ProviderName, Render> = {
	ollama: (p) => t("connection.unreachable.ollama", { origin: param(p, "origin") }),
	openai: (p) => t("connection.unreachable.openai", { origin: param(p, "origin") }),
	anthropic: (p) => t("connection.unreachable.anthropic", { origin: param(p, "origin") }),
};

const CONNECTION_TEXT: Record<ConnectionCode, Render> = {
	connected: (p) => t("connection.connected", { provider: providerLabel(p), model: param(p, "model") }),
	connected_unlisted: (p) => t("connection.connectedUnlisted", { provider: providerLabel(p), model: param(p, "model") }),
	choose_model: (p) =>
		param(p, "models") === "" ? t("connection.chooseModelInSettings", { provider: providerLabel(p) }) : t("connection.chooseModel", { provider: providerLabel(p), models: param(p, "models") }),
	model_not_downloaded: (p) => t("connection.modelNotDownloaded", { model: param(p, "model") }),
	model_not_listed: (p) => t("connection.modelNotListed", { model: param(p, "model"), models: param(p, "models") }),
	stopped: () => t("connection.stopped"),
	origin_refused: (p) => originRefusedText(p),
	timed_out: () => t("connection.timedOut"),
	unreachable: (p) => UNREACHABLE[providerOf(p)](p),
	auth_rejected: () => t("connection.authRejected"),
	no_model_list: (p) => t("connection.noModelList", { origin: param(p, "origin"), url: param(p, "url") }),
	server_error: (p) => (param(p, "status") === "" ? t("connection.serverErrorNoStatus") : t("connection.serverError", { status: String(param(p, "status")) })),
};

/** Ollama refused the app's origin: the fix, with the command to start it by. */
export function originRefusedText(p: NoticeParams | undefined): string {
	return t("connection.originRefused", { origin: param(p, "origin"), command: OLLAMA_ORIGINS_FIX });
}

export function connectionCodeText(code: ConnectionCode, params?: NoticeParams): string {
	return CONNECTION_TEXT[code](params);
}

/** What to show for a connection test: the finding in the person's language, and the server's words apart. */
export function connectionText(d: ConnectionDiagnosis): { text: string; said?: string } {
	// A diagnosis without a code (an adapter of a script's own) is shown as it came.
	if (d.code === undefined || !(d.code in CONNECTION_TEXT)) return { text: d.message };
	return { text: connectionCodeText(d.code, d.params), ...(d.said ? { said: d.said } : {}) };
}
