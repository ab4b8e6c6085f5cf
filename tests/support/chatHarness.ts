import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { ChatService, type ChatEvent } from "../../src/chat/ChatService";
import type { ChatSettings, LLMAdapter } from "../../src/core/types";
import { startTimer } from "../../src/core/timers";
import { StubAdapter } from "./stubAdapter";

/** A small window, so a few turns reach compaction. */
export const SMALL: Partial<ChatSettings> = { maxPromptTokens: 1024, reservedResponseTokens: 128, recentMessagesToKeep: 4, minRecentMessagesToKeep: 2, systemPrompt: "Be brief." };

/** A ChatService over an in-memory store, recording its events. */
export function setup(adapter: LLMAdapter = new StubAdapter(), settings: Partial<ChatSettings> = SMALL, store = new MemoryFileStore()) {
	const sessions = new SessionManager(store, { onWarning: () => undefined });
	const events: ChatEvent[] = [];
	const chat = new ChatService({ adapter, sessions, settings, onEvent: (e) => events.push(e) });
	return { chat, sessions, store, events };
}

export function copyStore(store: MemoryFileStore): MemoryFileStore {
	const copy = new MemoryFileStore();
	for (const [k, v] of store.files) copy.files.set(k, v);
	return copy;
}

export const words = (n: number, word = "word"): string => Array.from({ length: n }, () => word).join(" ");

/** Runs `body` with console.error captured, returning what was logged. */
export async function capturingConsoleErrors(body: () => Promise<void>): Promise<unknown[]> {
	const errors: unknown[] = [];
	const original = console.error;
	console.error = (...args: unknown[]) => errors.push(args);
	try {
		await body();
	} finally {
		console.error = original;
	}
	return errors;
}

/** Resolves after `ms` milliseconds (the window's timer in the app's tests, Node's here). */
export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => startTimer(resolve, ms));
}

/** Waits, a macrotask at a time, until `cond` holds (at most about 2 s). */
export async function until(cond: () => boolean, what = "the condition"): Promise<void> {
	for (let i = 0; i < 1000; i++) {
		if (cond()) return;
		await sleep(2);
	}
	throw new Error(`Timed out waiting for ${what}`);
}
