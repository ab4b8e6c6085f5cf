import { abortedError, untilAborted } from "../core/abortable";
import type { WriteOptions } from "./types";

/** Which chat an operation writes, and when its caller stops waiting for it. */
export interface OperationScope extends WriteOptions {
	sessionId?: string;
}

/**
 * The session store's operations, one at a time in call order, so a chat's file and the cache
 * agree. A caller that stops waiting (its signal aborts) lets the others go on; the abandoned
 * write still lands, before that chat's later writes.
 */
export class OperationQueue {
	private tail: Promise<unknown> = Promise.resolve();
	/** Chats whose abandoned write is still under way: their next operations wait for it. */
	private readonly stuck = new Map<string, Promise<void>>();

	/**
	 * Runs `task` after every earlier call has settled. With a `signal` (WriteOptions), a caller
	 * that stops waiting does not keep the other chats waiting behind a write that hangs.
	 */
	run<T>(task: () => Promise<T>, scope: OperationScope = {}): Promise<T> {
		const { sessionId, signal } = scope;
		if (signal?.aborted === true && scope.keep !== true) return Promise.reject(abortedError());
		const stuck = sessionId === undefined ? undefined : this.stuck.get(sessionId);
		let run: Promise<T>;
		if (sessionId === undefined || stuck === undefined) run = this.enqueue(task, scope);
		else {
			// That chat's file still has an abandoned write under way: this one waits for it outside
			// the queue, so the file's writes stay in order while other chats go on.
			run = stuck.then(() => this.enqueue(task, scope));
			this.markStuck(sessionId, run);
		}
		// A write to keep settles when it lands: its caller decides how long to wait.
		return scope.keep === true ? run : untilAborted(run, signal);
	}

	private enqueue<T>(task: () => Promise<T>, scope: OperationScope): Promise<T> {
		const { sessionId, signal, keep } = scope;
		let release: (() => void) | undefined;
		const released = new Promise<void>((resolve) => (release = resolve));
		const letGo = (): void => {
			// Under way: it still lands, in order with this chat's later writes, but the queue moves on.
			if (sessionId !== undefined) this.markStuck(sessionId, run);
			release?.();
		};
		const run = this.tail.then(() => {
			// Abandoned before its turn: nothing is written.
			if (signal?.aborted === true && keep !== true) throw abortedError();
			const work = task();
			if (signal?.aborted === true) letGo();
			else signal?.addEventListener("abort", letGo, { once: true });
			return work;
		});
		if (signal !== undefined) {
			const detach = (): void => signal.removeEventListener("abort", letGo);
			run.then(detach, detach);
		}
		this.tail = Promise.race([run.catch(() => undefined), released]);
		return run;
	}

	/** Later operations on `sessionId` wait for `until` to settle (and the mark goes away with it). */
	private markStuck(sessionId: string, until: Promise<unknown>): void {
		const settled = until.then(
			() => undefined,
			() => undefined,
		);
		this.stuck.set(sessionId, settled);
		void settled.then(() => {
			if (this.stuck.get(sessionId) === settled) this.stuck.delete(sessionId);
		});
	}
}
