import type { SessionSummary, SessionsPort } from "../ports";

/** How long the session list is reused before it is read again. */
export const LIST_CACHE_MS = 10_000;

/** What the history browser remembers between openings, per plugin instance. */
export interface HistoryState {
	selectedId: string | undefined;
	query: string;
	listScroll: number;
	/** Items rendered in the list (it grows page by page), so reopening can restore the scroll. */
	listShown: number;
	/** The selected chat's messages' scroll position, and how many of them were rendered. */
	messagesScroll: number;
	messagesShown: number;
	cache: { at: number; list: SessionSummary[] } | undefined;
}

const states = new WeakMap<object, HistoryState>();

export function historyStateFor(owner: object): HistoryState {
	let state = states.get(owner);
	if (!state) {
		state = { selectedId: undefined, query: "", listScroll: 0, listShown: 0, messagesScroll: 0, messagesShown: 0, cache: undefined };
		states.set(owner, state);
	}
	return state;
}

/** The session list, from the cache when it is younger than 10 s. */
export async function cachedSessionList(state: HistoryState, sessions: SessionsPort, now: number = Date.now()): Promise<SessionSummary[]> {
	if (state.cache && now - state.cache.at < LIST_CACHE_MS) return state.cache.list;
	const list = await sessions.list();
	state.cache = { at: now, list };
	return list;
}

export function invalidateSessionList(state: HistoryState): void {
	state.cache = undefined;
}
