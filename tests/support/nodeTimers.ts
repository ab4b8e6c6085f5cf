// Node's timers for tests that run in Node (no window) and inject a scheduler into the code under
// test. Looked up on globalThis at each call: vi.useFakeTimers replaces them there, not in node:timers.
type Handle = ReturnType<typeof globalThis.setTimeout>;

export const nodeTimers = {
	set: (fn: () => void, ms: number): Handle => globalThis.setTimeout(fn, ms),
	clear: (handle: unknown): void => globalThis.clearTimeout(handle as Handle),
};
