import { t, type PlainKey } from "../../i18n";
// Where the model runs, in words: "Ollama on this computer", "OpenAI-compatible server at gpu.lan".

const PROVIDER_WORDS: Record<string, PlainKey> = {
	ollama: "provider.ollama",
	openai: "provider.openai",
	anthropic: "provider.anthropic",
};

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1", "0.0.0.0"]);

/** The provider and its host; a loopback address is "on this computer". */
export function whereModelRuns(settings: { provider: string; baseUrl: string }): string {
	const key = PROVIDER_WORDS[settings.provider];
	const provider = key ? t(key) : settings.provider;
	let host = "";
	try {
		host = new URL(settings.baseUrl.trim()).hostname;
	} catch {
		// An address the settings tab would refuse: name the provider alone.
		return provider;
	}
	if (host === "") return provider;
	if (LOCAL_HOSTS.has(host) || host.endsWith(".localhost")) return t("place.local", { provider });
	return t("place.remote", { provider, host });
}
