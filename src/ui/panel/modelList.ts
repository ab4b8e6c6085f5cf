// The server's model list, kept in memory per provider and address: opening the header's menu
// again answers at once, and "Refresh list" asks the server anew.
import type { ModelInfo } from "../ports";

const lists = new Map<string, Promise<readonly ModelInfo[]>>();

export function modelListKey(settings: { provider: string; baseUrl: string }): string {
	return `${settings.provider} ${settings.baseUrl.trim()}`;
}

/** The cached list for `key`, or `load()`'s (a failed listing is not kept: the next call asks again). */
export function cachedModels(key: string, load: () => Promise<ModelInfo[]>, refresh = false): Promise<readonly ModelInfo[]> {
	if (refresh) lists.delete(key);
	const held = lists.get(key);
	if (held) return held;
	const listing = load();
	lists.set(key, listing);
	listing.catch(() => {
		if (lists.get(key) === listing) lists.delete(key);
	});
	return listing;
}

/** Forgets every list (tests start clean). */
export function forgetModelLists(): void {
	lists.clear();
}
