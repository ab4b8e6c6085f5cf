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
