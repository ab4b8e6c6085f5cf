// What a prompt costs in tokens: its messages' texts plus the chat framing around them. One way of
// counting, with whatever estimator the caller has (the engine's is calibrated and memoized).
import { estimateTokens } from "./tokens";
import { fromBase64 } from "../core/base64";
import { headerSize, type HeaderImageType } from "../core/imageHeader";
import { downscaleTarget, imageTokens, MAX_PIXELS, type Size } from "../core/imageSize";
import type { ImageTokenRule, PromptImage, PromptMessage } from "../core/types";

/** Tokens of role framing around each message in a chat prompt (role name, separators). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens that prime the assistant's reply at the end of a chat prompt. */
export const PROMPT_OVERHEAD_TOKENS = 3;

/**
 * Estimates the tokens of a text. The engine passes a calibrated, memoized one; tests may pass their
 * own. `imageRule`: how the model's provider prices an image (the larger of tiles and area when absent).
 */
export type EstimateFn = ((text: string) => number) & { imageRule?: ImageTokenRule };

/** An image given inline (headless callers) has no size on record: priced as the largest image we send. */
const INLINE_IMAGE_SIZE = { width: Math.floor(Math.sqrt(MAX_PIXELS)), height: Math.floor(Math.sqrt(MAX_PIXELS)) };

const HEADER_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/gif", "image/webp"] satisfies HeaderImageType[];
/** Base64 characters read for an image's header: a JPEG's size may follow up to 64 KB of EXIF. */
const HEADER_CHARS = 96 * 1024;

/** The size an inline image is sent at, from its header; the largest we send when it cannot be read. */
function inlineImageSize(image: PromptImage): Size {
	if (!HEADER_TYPES.includes(image.mediaType)) return INLINE_IMAGE_SIZE;
	let bytes: Uint8Array;
	try {
		const head = image.data.slice(0, HEADER_CHARS);
		bytes = fromBase64(head.slice(0, head.length - (head.length % 4)));
	} catch {
		return INLINE_IMAGE_SIZE;
	}
	const size = headerSize(image.mediaType as HeaderImageType, bytes);
	return size !== undefined ? downscaleTarget(size) : INLINE_IMAGE_SIZE;
}

/** The tokens of an image given inline (a tool's, before it is saved), at the size it is sent at. */
export function inlineImageTokens(image: PromptImage, estimate: EstimateFn): number {
	return imageTokens(inlineImageSize(image), estimate.imageRule);
}

/** The tokens of the images a message carries, by reference or inline, under the estimator's rule. */
export function messageImageTokens(m: Pick<PromptMessage, "attachments" | "images">, estimate: EstimateFn): number {
	let total = 0;
	for (const image of m.attachments ?? []) total += imageTokens(image, estimate.imageRule);
	// Inline images that stand for attachments are already counted by them.
	if (m.attachments === undefined || m.attachments.length === 0) total += (m.images?.length ?? 0) * imageTokens(INLINE_IMAGE_SIZE, estimate.imageRule);
	return total;
}

export const defaultEstimate: EstimateFn = estimateTokens;

/** One message as the model sees it: its text plus the role framing. */
export function messageCost(content: string, estimate: EstimateFn): number {
	return MESSAGE_OVERHEAD_TOKENS + estimate(content);
}

/**
 * A message with what it carries besides its text: each tool call's name and arguments (as the
 * JSON the model wrote), a tool result's name. Parts are estimated apart, so the memoized
 * estimator still sees the (unchanged) text by itself.
 */
export function promptMessageCost(m: PromptMessage, estimate: EstimateFn): number {
	let total = messageCost(m.content, estimate) + messageImageTokens(m, estimate);
	for (const call of m.toolCalls ?? []) total += estimate(call.name) + estimate(JSON.stringify(call.arguments));
	if (m.name !== undefined) total += estimate(m.name);
	return total;
}

/** A whole prompt: every message's cost plus the reply's priming. */
export function promptCost(messages: readonly PromptMessage[], estimate: EstimateFn): number {
	let total = PROMPT_OVERHEAD_TOKENS;
	for (const m of messages) total += promptMessageCost(m, estimate);
	return total;
}

/** `promptMessageCost` with the plain (uncalibrated) estimator. */
export function estimateMessageTokens(message: PromptMessage): number {
	return promptMessageCost(message, estimateTokens);
}

/** `promptCost` with the plain (uncalibrated) estimator. */
export function estimatePromptTokens(messages: readonly PromptMessage[]): number {
	return promptCost(messages, estimateTokens);
}

/**
 * Memoizes an estimator by text. Map lookups on a string the engine already holds are cheap
 * (V8 caches the hash), so an unchanged history is never re-estimated. Bounded so a long
 * session cannot grow it without limit.
 */
export function memoizeEstimate(estimate: EstimateFn, maxEntries = 4096): EstimateFn {
	let cache = new Map<string, number>();
	const memoized: EstimateFn = (text: string): number => {
		// Tiny strings are cheaper to estimate than to hash and keep.
		if (text.length < 16) return estimate(text);
		const hit = cache.get(text);
		if (hit !== undefined) return hit;
		const value = estimate(text);
		if (cache.size >= maxEntries) cache = new Map();
		cache.set(text, value);
		return value;
	};
	if (estimate.imageRule !== undefined) memoized.imageRule = estimate.imageRule;
	return memoized;
}
