// The way back from an MCP server's sign-in page: the authorization server redirects the browser to
// `obsidian://discover-mcp-oauth?code=…&state=…`, Obsidian hands the parameters to the handler the
// plugin registered, and the sign-in waiting for that `state` (src/mcp/oauth.ts) goes on. Small and
// free of src/mcp: main.ts registers the handler at load, before any MCP code is loaded.
import type { ObsidianProtocolData } from "obsidian";

/** The protocol action: `obsidian://discover-mcp-oauth`. */
export const OAUTH_ACTION = "discover-mcp-oauth";
export const OAUTH_REDIRECT_URL = `obsidian://${OAUTH_ACTION}`;
/** How long a sign-in waits for the browser to come back. */
export const OAUTH_WAIT_MS = 10 * 60_000;

interface Waiter {
	resolve(url: URL): void;
	reject(err: Error): void;
	timer: number;
}

export class OAuthRedirects {
	private readonly waiting = new Map<string, Waiter>();

	constructor(private readonly open: (url: string) => void) {}

	/**
	 * Opens `url` (the authorization page) in the browser and resolves with the URL the person was
	 * sent back to (the one whose `state` matches). Another redirect (a stale or forged one) is
	 * ignored; none within OAUTH_WAIT_MS, or `signal`, rejects.
	 */
	authorize(url: URL, signal?: AbortSignal): Promise<URL> {
		const state = url.searchParams.get("state");
		if (state === null || state === "") return Promise.reject(new Error("The sign-in address has no state parameter; Discover cannot match the way back."));
		return new Promise<URL>((resolve, reject) => {
			const done = (): void => {
				window.clearTimeout(waiter.timer);
				this.waiting.delete(state);
				signal?.removeEventListener("abort", onAbort);
			};
			const onAbort = (): void => {
				done();
				reject(new Error("The sign-in was stopped."));
			};
			const waiter: Waiter = {
				resolve: (back) => {
					done();
					resolve(back);
				},
				reject: (err) => {
					done();
					reject(err);
				},
				timer: window.setTimeout(() => waiter.reject(new Error("The sign-in did not come back within 10 minutes; try again.")), OAUTH_WAIT_MS),
			};
			this.waiting.set(state, waiter);
			signal?.addEventListener("abort", onAbort, { once: true });
			this.open(url.toString());
		});
	}

	/** The protocol handler: Obsidian calls it with the redirect's parameters. */
	handle(params: ObsidianProtocolData): boolean {
		const state = params.state;
		if (typeof state !== "string") return false;
		const waiter = this.waiting.get(state);
		if (waiter === undefined) return false;
		const back = new URL(OAUTH_REDIRECT_URL);
		for (const [key, value] of Object.entries(params)) if (key !== "action") back.searchParams.set(key, value);
		waiter.resolve(back);
		return true;
	}

	/** Ends every sign-in still waiting (the plugin unloads). */
	close(): void {
		for (const waiter of [...this.waiting.values()]) waiter.reject(new Error("Discover was unloaded during the sign-in."));
	}
}
