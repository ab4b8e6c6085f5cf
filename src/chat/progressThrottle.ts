// A running tool's progress, thinned for its card: at most one update every `everyMs` (a server may
// send thousands), and the newest one never lost: an update that comes too soon is held and shown
// when the time is up, so a server that goes quiet on a long step never leaves the card on an old
// one. Ending (the call done or stopped) drops what is held.
import { startTimer, stopTimer, type TimerHandle } from "../core/timers";
import type { ToolProgress } from "../core/types";

export interface ThrottleClock {
	now(): number;
	start(fn: () => void, ms: number): TimerHandle;
	stop(handle: TimerHandle): void;
}

const realClock: ThrottleClock = { now: () => Date.now(), start: startTimer, stop: stopTimer };

export interface ProgressThrottle {
	/** A report from the tool (anything but a finite `progress` is ignored). */
	report(p: ToolProgress): void;
	/** The call ended: nothing more is shown. */
	end(): void;
}

export function progressThrottle(show: (p: ToolProgress) => void, everyMs: number, clock: ThrottleClock = realClock): ProgressThrottle {
	let shownAt = -Infinity;
	let held: ToolProgress | undefined;
	let timer: TimerHandle = undefined;
	let ended = false;
	const display = (p: ToolProgress): void => {
		shownAt = clock.now();
		show(p);
	};
	return {
		report(p) {
			if (ended || typeof p?.progress !== "number" || !Number.isFinite(p.progress)) return;
			const wait = everyMs - (clock.now() - shownAt);
			if (wait <= 0 && timer === undefined) return display(p);
			held = p;
			timer ??= clock.start(() => {
				timer = undefined;
				const next = held;
				held = undefined;
				if (next !== undefined && !ended) display(next);
			}, Math.max(wait, 0));
		},
		end() {
			ended = true;
			clock.stop(timer);
			timer = undefined;
			held = undefined;
		},
	};
}
