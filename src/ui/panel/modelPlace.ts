import { t, type PlainKey } from "../../i18n";
import { placeOfHost, serverHost } from "../../core/serverPlace";
// Where the model runs, in words: "Ollama on this computer", "OpenAI-compatible server at gpu.lan".

const PROVIDER_WORDS: Record<string, PlainKey> = {
	ollama: "provider.ollama",
	openai: "provider.openai",
	anthropic: "provider.anthropic",
};

/** The provider and its host; a loopback address is "on this computer". */
export function whereModelRuns(settings: { provider: string; baseUrl: string }): string {
	const key = PROVIDER_WORDS[settings.provider];
	const provider = key ? t(key) : settings.provider;
	// An address the settings tab would refuse: name the provider alone.
	const host = serverHost(settings.baseUrl);
	if (host === undefined) return provider;
	if (placeOfHost(host) === "this-computer") return t("place.local", { provider });
	return t("place.remote", { provider, host });
}
