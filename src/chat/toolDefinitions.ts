// What the tool definitions offered with a request cost in tokens. Every provider puts them in the
// prompt it counts, each in its own way, and the engine knows only the model's name:
// - Anthropic (claude-*) adds a tool-use system prompt, documented per model ("Tool use pricing and
//   tokens": 346 tokens for current models with tool_choice auto; Claude 3 Opus 530, Claude 3 Haiku
//   264, Claude 3 Sonnet 159), plus the tools' names, descriptions and input schemas as JSON;
// - OpenAI's own models (gpt-*, o1/o3/o4…) get the functions rewritten into a TypeScript-like
//   namespace: names, descriptions, property names and types, with a few tokens of framing per
//   function (about 7), per property (about 3) and per request (about 12), smaller than the JSON;
// - everything else (Ollama, LM Studio, vLLM, llama.cpp) renders the tools into the model's chat
//   template: each tool's JSON inside an instruction block of roughly 60-160 tokens.
// Two figures come out of it:
// - `charged`: the most the provider is likely to add (each tool's JSON as sent, a wrapper per tool,
//   the preamble: Anthropic's documented one, 160 for a template, 12 for OpenAI). It is held back
//   from the budget of every request that offers tools, and shown on the meter: the budget must
//   never be exceeded.
// - `counted`: what calibration adds to a prompt's estimate before comparing it with the server's
//   count: Anthropic's JSON and documented preamble, OpenAI's published accounting (its cookbook's
//   texts and framing tokens), a template's JSON without its unknown instruction block. Where it
//   is unsure it errs low, so the learned factor can only come out larger (the safe side), never
//   smaller; and the definitions no longer read as "this model counts more", which inflated the
//   factor of every prompt, tool-less ones included.
import type { EstimateFn } from "./promptCost";
import type { ToolSpec } from "../core/types";

/** A wrapper per tool beyond its JSON (`{"type":"function","function":…}`, template separators). */
export const TOOL_WRAPPER_TOKENS = 12;
/** The instruction block a chat template puts around the tools (Qwen, Llama 3.1, Hermes-style). */
export const TEMPLATE_TOOLS_PREAMBLE_TOKENS = 160;
/** OpenAI's framing of its functions namespace (per request, per function, per property). */
const OPENAI_REQUEST_TOKENS = 12;
const OPENAI_FUNCTION_TOKENS = 7;
const OPENAI_PROPERTIES_TOKENS = 3;
const OPENAI_PROPERTY_TOKENS = 3;
const OPENAI_ENUM_TOKENS = -3;
const OPENAI_ENUM_VALUE_TOKENS = 3;

type Rendering = "anthropic" | "openai" | "template";

function renderingOf(model: string): Rendering {
	const name = model.toLowerCase().replace(/^.*\//, "");
	if (name.includes("claude")) return "anthropic";
	if (/^(gpt-|chatgpt-|o\d)/.test(name)) return "openai";
	return "template";
}

/** Anthropic's tool-use system prompt, tool_choice auto (documented per model). */
export function anthropicToolPreamble(model: string): number {
	const name = model.toLowerCase();
	if (name.includes("claude-3-opus")) return 530;
	if (name.includes("claude-3-haiku")) return 264;
	if (name.includes("claude-3-sonnet")) return 159;
	return 346;
}

/**
 * The texts OpenAI's accounting counts of one tool (its cookbook, "How to count tokens with
 * tiktoken", function definitions): the name, the description, and each property's name, type,
 * description and enum values; the framing around them is `openaiFraming`.
 */
export function toolPlainText(spec: ToolSpec): string {
	const words: string[] = [spec.name, spec.description];
	const walk = (schema: unknown): void => {
		if (typeof schema !== "object" || schema === null) return;
		const props = (schema as { properties?: unknown }).properties;
		if (typeof props !== "object" || props === null) return;
		for (const [key, value] of Object.entries(props as Record<string, unknown>)) {
			words.push(key);
			if (typeof value !== "object" || value === null) continue;
			const p = value as Record<string, unknown>;
			if (typeof p.type === "string") words.push(p.type);
			if (typeof p.description === "string") words.push(p.description);
			if (Array.isArray(p.enum)) for (const v of p.enum) words.push(String(v));
			walk(value);
		}
	};
	walk(spec.parameters);
	return words.join("\n");
}

/** OpenAI's framing tokens around the texts (per function, per property list, per property, per enum value, per request). */
function openaiFraming(specs: readonly ToolSpec[]): number {
	let total = OPENAI_REQUEST_TOKENS;
	const walk = (schema: unknown): void => {
		if (typeof schema !== "object" || schema === null) return;
		const props = (schema as { properties?: unknown }).properties;
		if (typeof props !== "object" || props === null || Object.keys(props).length === 0) return;
		total += OPENAI_PROPERTIES_TOKENS;
		for (const value of Object.values(props as Record<string, unknown>)) {
			total += OPENAI_PROPERTY_TOKENS;
			const values = typeof value === "object" && value !== null ? (value as { enum?: unknown }).enum : undefined;
			if (Array.isArray(values)) total += OPENAI_ENUM_TOKENS + OPENAI_ENUM_VALUE_TOKENS * values.length;
			walk(value);
		}
	};
	for (const spec of specs) {
		total += OPENAI_FUNCTION_TOKENS;
		walk(spec.parameters);
	}
	return total;
}

/** Each tool's JSON as providers send it (name, description, parameters). */
export function toolJson(spec: ToolSpec): string {
	return JSON.stringify({ name: spec.name, description: spec.description, parameters: spec.parameters });
}

interface ToolSetTexts {
	json: string[];
	plain: string[];
}

/** Texts per tool set, by the set's JSON: a turn's rounds and later turns reuse them. */
const textsBySet = new Map<string, ToolSetTexts>();
const MAX_SETS = 16;

function textsOf(specs: readonly ToolSpec[]): ToolSetTexts {
	const key = JSON.stringify(specs.map(toolJson));
	let texts = textsBySet.get(key);
	if (texts === undefined) {
		texts = { json: specs.map(toolJson), plain: specs.map(toolPlainText) };
		if (textsBySet.size >= MAX_SETS) textsBySet.clear();
		textsBySet.set(key, texts);
	}
	return texts;
}

/** Charged costs per estimator and tool set (the estimator changes when the model's factor moves). */
const chargedCache = new WeakMap<EstimateFn, Map<string, number>>();

/** The most the definitions of `specs` add to a prompt for `model`: held back from its budget. */
export function chargedToolTokens(specs: readonly ToolSpec[], model: string, estimate: EstimateFn): number {
	if (specs.length === 0) return 0;
	const key = `${model}\u0000${JSON.stringify(specs.map(toolJson))}`;
	let byKey = chargedCache.get(estimate);
	if (byKey === undefined) {
		byKey = new Map();
		chargedCache.set(estimate, byKey);
	}
	const known = byKey.get(key);
	if (known !== undefined) return known;
	const { json } = textsOf(specs);
	const rendering = renderingOf(model);
	let total = rendering === "anthropic" ? anthropicToolPreamble(model) : rendering === "openai" ? OPENAI_REQUEST_TOKENS : TEMPLATE_TOOLS_PREAMBLE_TOKENS;
	for (const text of json) total += estimate(text) + TOOL_WRAPPER_TOKENS;
	if (byKey.size >= MAX_SETS) byKey.clear();
	byKey.set(key, total);
	return total;
}

/**
 * The part of the definitions a calibration point accounts for: `scaled`, the raw estimate of the
 * texts (they scale with the tokenizer, like the messages), and `fixed`, framing tokens that do not
 * (taken off the server's count before the ratio is formed).
 */
export interface CountedToolTokens {
	scaled: number;
	fixed: number;
	/** The texts `scaled` estimates, for the per-script split of the observation. */
	texts: readonly string[];
}

export function countedToolTokens(specs: readonly ToolSpec[], model: string, rawEstimate: EstimateFn): CountedToolTokens {
	if (specs.length === 0) return { scaled: 0, fixed: 0, texts: [] };
	const { json, plain } = textsOf(specs);
	const rendering = renderingOf(model);
	if (rendering === "openai") {
		return { scaled: plain.reduce((sum, text) => sum + rawEstimate(text), 0), fixed: openaiFraming(specs), texts: plain };
	}
	const scaled = json.reduce((sum, text) => sum + rawEstimate(text), 0);
	return { scaled, fixed: rendering === "anthropic" ? anthropicToolPreamble(model) : 0, texts: json };
}
