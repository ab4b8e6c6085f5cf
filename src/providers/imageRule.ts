import type { ImageTokenRule } from "../core/types";
import type { ProviderName } from "./types";

/**
 * How the chat's provider prices an image: OpenAI-compatible servers by OpenAI's tiles (the servers
 * that price otherwise, llama.cpp or vLLM, stay in that range for images we have downscaled),
 * Anthropic by area, Ollama by the person's per-image setting (its models differ too much for one rule).
 */
export function imageRuleFor(provider: ProviderName, ollamaImageTokens: number): ImageTokenRule {
	if (provider === "openai") return "tiles";
	if (provider === "anthropic") return "area";
	return { perImage: ollamaImageTokens };
}
