// "Prompt layout": how a chat's prompt trades the window against the server's prompt cache.
// A follow-up is answered fast only when its request repeats the previous one as an
// exact prefix: the server then evaluates only the new tokens. On a chat about a note larger than the
// window, that means leaving room free for the next turns, so the model sees less of the note at
// once (bench/promptCache.ts: about 0.7 of an 8k window instead of 0.97, and the first word after
// about 1.5 s instead of 11 s at 2 ms a prompt token). The two cannot both hold; which matters more
// depends on the server:
// - "cache": the stable layout (promptCycle.ts): earlier turns repeat as sent; sources shed at once
//   when the room runs out, leaving half the window free again.
// - "window": every prompt fills the window with what is most relevant now ("yield").
// - "auto" (the default): "cache" on a server on this computer or the local network, where every
//   prompt token not cached costs the person seconds; "window" on a hosted API, which evaluates a
//   prompt in well under a second and whose window is rarely the limit.
import type { EarlierSources } from "../chat/promptSentSources";
import type { ProviderName } from "../providers/types";
import { placeOfHost, serverHost } from "../core/serverPlace";

export const PROMPT_LAYOUTS = ["auto", "cache", "window"] as const;
export type PromptLayout = (typeof PROMPT_LAYOUTS)[number];
export const DEFAULT_PROMPT_LAYOUT: PromptLayout = "auto";

export function isPromptLayout(v: unknown): v is PromptLayout {
	return (PROMPT_LAYOUTS as readonly unknown[]).includes(v);
}

/**
 * True when `baseUrl` names this computer or a machine on the local network (core/serverPlace.ts):
 * a model running on hardware the person owns. Anything else, and anything that does not parse, is hosted.
 */
export function isLocalServer(baseUrl: string): boolean {
	const host = serverHost(baseUrl);
	return host !== undefined && placeOfHost(host) !== "elsewhere";
}

/** The engine's policy for earlier turns' sources under `layout`, for a chat with this server. */
export function earlierSourcesFor(layout: PromptLayout, server: { provider: ProviderName; baseUrl: string }): EarlierSources {
	if (layout === "cache") return "stable";
	if (layout === "window") return "yield";
	return server.provider !== "anthropic" && isLocalServer(server.baseUrl) ? "stable" : "yield";
}
