import type { FileStore } from "../../src/sessions/store";
import type { ChatMessage, Role } from "../../src/core/types";

/** A message with a deterministic id and time, for tests. */
export function message(role: Role, content: string, n: number, extra: Partial<ChatMessage> = {}): ChatMessage {
	return { id: `m${n}`, role, content, createdAt: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(), ...extra };
}

/** A clock that advances one second per call, so every record gets a distinct time. */
export function steppingClock(start = Date.UTC(2026, 0, 1)): () => number {
	let t = start;
	return () => (t += 1000);
}

/** A store without the optional stat and rename, like a minimal third-party implementation. */
export function minimalStore(inner: FileStore): FileStore {
	return {
		read: (p) => inner.read(p),
		write: (p, d) => inner.write(p, d),
		append: (p, d) => inner.append(p, d),
		exists: (p) => inner.exists(p),
		list: (d) => inner.list(d),
		remove: (p) => inner.remove(p),
		mkdir: (d) => inner.mkdir(d),
	};
}
