// Whether a server's model list holds a model named as a person wrote it (in the settings, or in an
// agent note's `model:`). Lenient on purpose: the list is only used to warn early, and a name the
// server would accept must never be called unknown (the send reports a real miss anyway).
import type { ModelInfo, ProviderName } from "./types";

/** Ollama names `llama3.2` and `llama3.2:latest` the same model; names are compared without case. */
function withTag(name: string): string {
	const lower = name.trim().toLowerCase();
	return lower.includes(":") ? lower : `${lower}:latest`;
}

/**
 * Anthropic lists dated ids (`claude-sonnet-4-5-20250929`) and accepts aliases that are not listed:
 * the id without its date, `…-latest` and `…-0` (`claude-3-7-sonnet-latest`, `claude-opus-4-0`).
 */
function anthropicStem(name: string): string {
	return name.replace(/-(?:latest|0)$/, "");
}

export function offersModel(provider: ProviderName, models: readonly ModelInfo[], name: string): boolean {
	const wanted = name.trim();
	if (wanted === "") return false;
	if (models.some((m) => m.id === wanted)) return true;
	if (provider === "anthropic") {
		const stem = anthropicStem(wanted);
		return models.some((m) => m.id.replace(/-\d{8}$/, "") === wanted || m.id.replace(/-\d{8}$/, "") === stem);
	}
	// Ollama, and OpenAI-compatible servers that are often Ollama or LM Studio underneath.
	const tagged = withTag(wanted);
	return models.some((m) => withTag(m.id) === tagged);
}
