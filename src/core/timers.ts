/**
 * Request timers. In the app these are the window's (what Obsidian reviewers expect); the engine also
 * runs headless in Node, where there is no window, so it falls back to the global timers there.
 */
const nodeTimers = { setTimeout, clearTimeout };

export type TimerHandle = unknown;

export function startTimer(fn: () => void, ms: number): TimerHandle {
	return typeof window !== "undefined" ? window.setTimeout(fn, ms) : nodeTimers.setTimeout(fn, ms);
}

export function stopTimer(handle: TimerHandle): void {
	if (handle === undefined) return;
	if (typeof window !== "undefined") window.clearTimeout(handle as number);
	else nodeTimers.clearTimeout(handle as ReturnType<typeof setTimeout>);
}
