import { startTimer, stopTimer } from "./timers";

// Stop must end a turn whatever an adapter or a store does: a promise that never settles cannot
// be cancelled, only stopped being waited for. These helpers do that, and make sure whatever the
// abandoned call does later (resolve, reject) is ignored.

/**
 * The error a stopped wait rejects with: named like fetch's, and with the `aborted` kind adapters
 * use (errorKind is duck-typed), without the session store depending on the providers.
 */
export function abortedError(message = "Stopped."): Error & { kind: "aborted" } {
	return Object.assign(new Error(message), { name: "AbortError", kind: "aborted" as const });
}

const ignore = (): void => undefined;

/**
 * `work`, unless `signal` aborts first: then it rejects at once with an AbortError, and `work`'s
 * late result or rejection is dropped (never an unhandled rejection).
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
	if (signal === undefined) return work;
	if (signal.aborted) {
		work.catch(ignore);
		return Promise.reject(abortedError());
	}
	return new Promise<T>((resolve, reject) => {
		const onAbort = (): void => reject(abortedError());
		signal.addEventListener("abort", onAbort, { once: true });
		work.then(
			(value) => {
				signal.removeEventListener("abort", onAbort);
				resolve(value);
			},
			(err: unknown) => {
				signal.removeEventListener("abort", onAbort);
				// eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the work's own rejection, passed on unchanged (adapters' errors carry their kind)
				reject(err);
			},
		);
	});
}

/**
 * Waits for `work` at most `ms` milliseconds; true when it settled in time. Never rejects: for
 * saves whose failure is reported elsewhere and whose slowness must not hold up the caller.
 */
export function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
	return new Promise<boolean>((resolve) => {
		const timer = startTimer(() => resolve(false), ms);
		const done = (): void => {
			stopTimer(timer);
			resolve(true);
		};
		work.then(done, done);
	});
}
