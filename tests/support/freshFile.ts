// What a worker of its own gave each test file, now that files share workers (vitest.config.ts,
// isolate: false): no timer of an earlier file left to fire. freshFileSetup.ts runs this around each
// file. It imports nothing of src/ or the runtime, so a file's vi.mock still replaces those.
import * as timers from "node:timers";
import { promisify } from "node:util";

/** The worker's global, whose timers this replaces (node-environment files have no window). */
const g = globalThis as unknown as Record<string | symbol, unknown>;

// ---- Timers ------------------------------------------------------------------------------------

/** Node's own timers (window.setTimeout is Node's too: vitest leaves it global), never an earlier file's wrapper. */
const node = { setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout, setInterval: timers.setInterval, clearInterval: timers.clearInterval, setImmediate: timers.setImmediate, clearImmediate: timers.clearImmediate };
type Handle = ReturnType<typeof setTimeout> | ReturnType<typeof setImmediate>;
/** Timers the running file set that have not fired or been cleared. */
const pending = new Set<Handle>();

function trackTimers(): void {
	const timeout = (handler: (...a: unknown[]) => void, ms?: number, ...args: unknown[]): ReturnType<typeof setTimeout> => {
		const h = node.setTimeout((...a: unknown[]) => {
			pending.delete(h);
			handler(...a);
		}, ms, ...args);
		pending.add(h);
		return h;
	};
	const immediate = (handler: (...a: unknown[]) => void, ...args: unknown[]): ReturnType<typeof setImmediate> => {
		const h = node.setImmediate((...a: unknown[]) => {
			pending.delete(h);
			handler(...a);
		}, ...args);
		pending.add(h);
		return h;
	};
	const interval = (handler: (...a: unknown[]) => void, ms?: number, ...args: unknown[]): ReturnType<typeof setInterval> => {
		const h = node.setInterval(handler, ms, ...args);
		pending.add(h);
		return h;
	};
	// util.promisify(setTimeout) and the like keep working.
	const custom = promisify.custom;
	Object.assign(timeout, { [custom]: (node.setTimeout as unknown as Record<symbol, unknown>)[custom] });
	Object.assign(immediate, { [custom]: (node.setImmediate as unknown as Record<symbol, unknown>)[custom] });
	Object.assign(g, {
		setTimeout: timeout,
		setImmediate: immediate,
		setInterval: interval,
		clearTimeout: (h?: ReturnType<typeof setTimeout>) => {
			if (h !== undefined) pending.delete(h);
			node.clearTimeout(h);
		},
		clearInterval: (h?: ReturnType<typeof setInterval>) => {
			if (h !== undefined) pending.delete(h);
			node.clearInterval(h);
		},
		clearImmediate: (h?: ReturnType<typeof setImmediate>) => {
			if (h !== undefined) pending.delete(h);
			node.clearImmediate(h);
		},
	});
}

/** Clears what the file left: a worker of its own would have ended with it. */
function clearTimers(): void {
	for (const h of pending) {
		node.clearTimeout(h as ReturnType<typeof setTimeout>);
		node.clearInterval(h as ReturnType<typeof setInterval>);
		node.clearImmediate(h as ReturnType<typeof setImmediate>);
	}
	pending.clear();
}

// ---- A file's start and end --------------------------------------------------------------------

export function startFile(): void {
	clearTimers();
	trackTimers();
}

export function endFile(): void {
	clearTimers();
}
