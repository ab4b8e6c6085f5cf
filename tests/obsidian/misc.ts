// Platform, requestUrl, debounce and getLanguage.
import type * as O from "obsidian";

/** Desktop by default; tests flip fields to exercise mobile paths. */
export const Platform: typeof O.Platform = {
	isDesktop: true,
	isMobile: false,
	isDesktopApp: true,
	isMobileApp: false,
	isIosApp: false,
	isAndroidApp: false,
	isPhone: false,
	isTablet: false,
	isMacOS: false,
	isWin: false,
	isLinux: true,
	isSafari: false,
	resourcePathPrefix: "app://local/",
};

export type RequestUrlHandler = (request: O.RequestUrlParam) => O.RequestUrlResponse | Promise<O.RequestUrlResponse>;

let requestHandler: RequestUrlHandler | null = null;

/** Not Obsidian API: answer requestUrl calls in tests; null restores "no network". */
export function setRequestUrlHandler(handler: RequestUrlHandler | null): void {
	requestHandler = handler;
}

export function requestUrl(request: O.RequestUrlParam | string): O.RequestUrlResponsePromise {
	const req: O.RequestUrlParam = typeof request === "string" ? { url: request } : request;
	const run = async (): Promise<O.RequestUrlResponse> => {
		if (!requestHandler) throw new Error(`net::ERR_INTERNET_DISCONNECTED (no requestUrl handler in tests): ${req.url}`);
		const res = await requestHandler(req);
		// Like Obsidian: a status of 400 or more rejects unless `throw: false`.
		if (res.status >= 400 && req.throw !== false) throw Object.assign(new Error(`Request failed, status ${res.status}`), { status: res.status });
		return res;
	};
	const promise = run();
	// Getters, so an unread `.json` never becomes an unhandled rejection.
	for (const key of ["arrayBuffer", "json", "text"] as const) {
		void Object.defineProperty(promise, key, { get: (): Promise<unknown> => promise.then((r): unknown => r[key]) });
	}
	return promise as O.RequestUrlResponsePromise;
}

/** Obsidian's debounce: calls `cb` once `timeout` ms after the last call (or the first, without resetTimer). */
export function debounce<T extends unknown[], V>(cb: (...args: [...T]) => V, timeout = 0, resetTimer = false): O.Debouncer<T, V> {
	// globalThis timers: debounce also runs in Node tests, where there is no window.
	let timer: ReturnType<typeof globalThis.setTimeout> | null = null;
	let pending: [...T] | null = null;
	const run = (): V | void => {
		if (timer !== null) globalThis.clearTimeout(timer);
		timer = null;
		if (!pending) return;
		const args = pending;
		pending = null;
		return cb(...args);
	};
	const debounced = function (...args: [...T]) {
		pending = args;
		if (timer !== null && !resetTimer) return debounced;
		if (timer !== null) globalThis.clearTimeout(timer);
		timer = globalThis.setTimeout(run, timeout);
		return debounced;
	} as O.Debouncer<T, V>;
	debounced.cancel = () => {
		if (timer !== null) globalThis.clearTimeout(timer);
		timer = null;
		pending = null;
		return debounced;
	};
	debounced.run = run;
	return debounced;
}

/** What Obsidian hands "quit" listeners: work it waits for before the app closes. */
export class Tasks {
	private readonly pending: Promise<unknown>[] = [];
	// obsidian.d.ts types these promises as Promise<any>; unknown is the safe reading of it.
	add(callback: () => Promise<unknown>): void {
		this.pending.push(callback());
	}
	addPromise(promise: Promise<unknown>): void {
		this.pending.push(promise);
	}
	isEmpty(): boolean {
		return this.pending.length === 0;
	}
	promise(): Promise<unknown[]> {
		return Promise.all(this.pending);
	}
}

/** The app's language, as Obsidian's settings would hold it; "en" unless a test sets another. */
let appLanguage = "en";

/** Not Obsidian API: the language getLanguage() reports ("en", "zh", "zh-TW", "ja"...), as if chosen in Obsidian's settings. */
export function setAppLanguage(code: string): void {
	appLanguage = code;
}

/** Obsidian's getLanguage(): the code of the language the app is set to; "en" by default. */
export function getLanguage(): string {
	return appLanguage;
}
