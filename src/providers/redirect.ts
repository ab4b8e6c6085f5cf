import { LLMError } from "./errors";
import { providerSubject, type ProviderName } from "./types";

export interface RedirectContext {
	provider: ProviderName;
	origin: string;
	/** The configured base URL, to suggest the matching address on the redirect's host. */
	baseUrl?: string;
}

/** A response that redirects: a real 3xx (Node, undici) or a browser's opaque redirect (status 0). */
export function isRedirect(response: Response): boolean {
	return response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400);
}

/**
 * The Base URL that reaches `target` the way `requested` reached the configured server: when the
 * redirect keeps the API path (`/v1/messages`), strip it; otherwise the target's origin.
 */
function suggestedBaseUrl(requested: string, target: URL, baseUrl: string | undefined): string {
	const requestPath = requested.split(/[?#]/)[0] ?? requested;
	const base = baseUrl?.replace(/\/+$/, "");
	if (base !== undefined && requestPath.startsWith(base)) {
		const apiPath = requestPath.slice(base.length);
		const targetPath = `${target.origin}${target.pathname}`;
		if (apiPath !== "" && targetPath.endsWith(apiPath)) return targetPath.slice(0, targetPath.length - apiPath.length);
	}
	return target.origin;
}

/**
 * Redirects are never followed: `fetch` drops `Authorization` across origins but keeps
 * `x-api-key`, so following one could hand the key to another host. Say where the server points
 * instead, and let the person decide whether that address belongs in settings.
 */
export function redirectError(ctx: RedirectContext, requested: string, response: Response): LLMError {
	const subject = providerSubject(ctx.provider);
	const opts = { provider: ctx.provider, status: response.status || undefined };
	const notFollowed = "It was not followed, so nothing (and no key) was sent there.";
	const location = response.type === "opaqueredirect" ? null : response.headers.get("location");
	let target: URL | undefined;
	try {
		target = location ? new URL(location, requested) : undefined;
	} catch {
		target = undefined;
	}
	if (target === undefined || (target.protocol !== "http:" && target.protocol !== "https:")) {
		// A browser hides an opaque redirect's target; the usual causes are http vs https or the path.
		return new LLMError(
			"protocol",
			`${subject} at ${ctx.origin} redirected the request elsewhere. ${notFollowed} Check the Base URL in settings (often https instead of http, or a missing or extra path such as /v1).`,
			opts,
		);
	}
	const suggested = suggestedBaseUrl(requested, target, ctx.baseUrl);
	return new LLMError(
		"protocol",
		`${subject} at ${ctx.origin} redirected to ${suggested} (HTTP ${response.status}). ${notFollowed} If that is the right server, put that address in Base URL in settings.`,
		opts,
	);
}
