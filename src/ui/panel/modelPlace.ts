// Where the model runs, in words: "Ollama on this computer", "OpenAI-compatible server at gpu.lan".

const PROVIDER_WORDS: Record<string, string> = {
	ollama: "Ollama",
	openai: "OpenAI-compatible server",
	anthropic: "Anthropic",
};

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1", "0.0.0.0"]);

/** The provider and its host; a loopback address is "on this computer". */
export function whereModelRuns(settings: { provider: string; baseUrl: string }): string {
	const provider = PROVIDER_WORDS[settings.provider] ?? settings.provider;
	let host = "";
	try {
		host = new URL(settings.baseUrl.trim()).hostname;
	} catch {
		// An address the settings tab would refuse: name the provider alone.
		return provider;
	}
	if (host === "") return provider;
	if (LOCAL_HOSTS.has(host) || host.endsWith(".localhost")) return `${provider} on this computer`;
	return `${provider} at ${host}`;
}
