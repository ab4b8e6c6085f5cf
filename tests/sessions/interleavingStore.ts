import type { FileStore } from "../../src/sessions/store";

/**
 * Wraps one shared FileStore once per writer, so that before any call a writer makes to the
 * store, another writer's whole operation can run first: between a stat and an append, between
 * an append and the stat after it, between a temporary write and the rename. That is how sync
 * lands another device's write in the middle of ours.
 */
export class Interleaver {
	private depth = 0;
	/** Store calls seen, by method: shows a test reached the points it means to. */
	readonly calls: string[] = [];

	/**
	 * `next(owner, method)` is asked before each call; it returns an operation of another writer
	 * to run first, or undefined. Injected operations do not inject in turn.
	 */
	constructor(private readonly next: (owner: number, method: string) => (() => Promise<void>) | undefined) {}

	private async before(owner: number, method: string): Promise<void> {
		this.calls.push(method);
		if (this.depth > 0) return;
		const op = this.next(owner, method);
		if (op === undefined) return;
		this.depth++;
		try {
			await op();
		} finally {
			this.depth--;
		}
	}

	/** The view of `inner` that writer `owner` uses. Optional methods exist only when `inner` has them. */
	storeFor(inner: FileStore, owner: number): FileStore {
		const wrap =
			<A extends unknown[], R>(method: string, call: (...args: A) => Promise<R>) =>
			async (...args: A): Promise<R> => {
				await this.before(owner, method);
				return call(...args);
			};
		const store: FileStore = {
			read: wrap("read", (p: string) => inner.read(p)),
			write: wrap("write", (p: string, d: string) => inner.write(p, d)),
			append: wrap("append", (p: string, d: string) => inner.append(p, d)),
			exists: wrap("exists", (p: string) => inner.exists(p)),
			list: wrap("list", (d: string) => inner.list(d)),
			remove: wrap("remove", (p: string) => inner.remove(p)),
			mkdir: wrap("mkdir", (d: string) => inner.mkdir(d)),
		};
		if (inner.stat !== undefined) store.stat = wrap("stat", (p: string) => inner.stat?.(p) ?? Promise.resolve(null));
		if (inner.rename !== undefined) store.rename = wrap("rename", (a: string, b: string) => inner.rename?.(a, b) ?? Promise.resolve());
		if (inner.readBytes !== undefined) store.readBytes = wrap("readBytes", (p: string) => inner.readBytes?.(p) ?? Promise.resolve(new Uint8Array()));
		if (inner.writeBytes !== undefined) store.writeBytes = wrap("writeBytes", (p: string, d: Uint8Array) => inner.writeBytes?.(p, d) ?? Promise.resolve());
		return store;
	}
}
