// JSON.parse of a large document in steps. One JSON.parse of a canvas of 2,000 cards held the main
// thread for 55-64 ms; here a top-level object's arrays (a canvas's `nodes` and `edges`) are cut
// into their elements by one linear scan, JSON_STEP_CHARS at a time, and each element is parsed
// alone (one huge element, such as a card of megabytes of text, is still one parse).
// The result is JSON.parse's; text that is not valid JSON throws JSON.parse's own error.
import type { Steps } from "./steps";

/** Text parsed whole when shorter than this (one JSON.parse of it is a millisecond or two). */
export const JSON_STEP_CHARS = 128 * 1024;

const QUOTE = 34;
const BACKSLASH = 92;

/** The value of `text`, as JSON.parse gives it, in steps of about JSON_STEP_CHARS characters. */
export function* parseJsonSteps(text: string, stepChars = JSON_STEP_CHARS): Steps<unknown> {
	if (text.length <= stepChars) return JSON.parse(text) as unknown;
	const start = skipSpace(text, 0);
	if (text.charCodeAt(start) !== 123 /* { */) return JSON.parse(text) as unknown;
	const out: Record<string, unknown> = {};
	// The text with every value parsed here replaced by 0: what is left (keys, brackets, commas) is
	// parsed at the end, so a misplaced comma or colon throws as JSON.parse would.
	const skeleton: string[] = [];
	let cut = 0;
	const value = (from: number, to: number): unknown => {
		const v = JSON.parse(text.slice(from, to)) as unknown;
		skeleton.push(text.slice(cut, from), "0");
		cut = to;
		return v;
	};
	// Depth 1: inside the object; 2: inside a member's value.
	let depth = 0;
	let inString = false;
	let keyStart = -1;
	let key: string | undefined;
	let valueStart = -1;
	let elements: unknown[] | undefined;
	let work = 0;
	try {
		for (let i = start; i < text.length; i++) {
			if (++work >= stepChars) {
				work = 0;
				yield;
			}
			const c = text.charCodeAt(i);
			if (inString) {
				if (c === BACKSLASH) i++;
				else if (c === QUOTE) inString = false;
				continue;
			}
			if (c === QUOTE) {
				inString = true;
				if (depth === 1 && key === undefined) keyStart = i;
			} else if (c === 58 /* : */ && depth === 1 && key === undefined && keyStart >= 0) {
				key = JSON.parse(text.slice(keyStart, i)) as string;
				valueStart = skipSpace(text, i + 1);
				if (text.charCodeAt(valueStart) === 91 /* [ */) {
					elements = [];
					valueStart += 1;
				}
			} else if (c === 123 || c === 91) depth++;
			else if (c === 44 /* , */ && depth === 2 && elements) {
				elements.push(value(valueStart, i));
				valueStart = i + 1;
			} else if (c === 44 && depth === 1 && key !== undefined) {
				if (!elements) set(out, key, value(valueStart, i));
				key = undefined;
				elements = undefined;
				keyStart = -1;
			} else if (c === 125 || c === 93) {
				depth--;
				if (depth === 1 && elements && c === 93) {
					if (text.slice(valueStart, i).trim() !== "") elements.push(value(valueStart, i));
					set(out, key as string, elements);
				} else if (depth === 0) {
					if (key !== undefined && !elements) set(out, key, value(valueStart, i));
					skeleton.push(text.slice(cut));
					JSON.parse(skeleton.join(""));
					return out;
				}
			}
		}
	} catch {
		// Below: JSON.parse of the whole gives the value, or its own error.
	}
	return JSON.parse(text) as unknown;
}

/** As JSON.parse sets a member: a later duplicate key wins, "__proto__" is an own property. */
function set(out: Record<string, unknown>, key: string, value: unknown): void {
	Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
}

function skipSpace(text: string, i: number): number {
	while (i < text.length && /\s/.test(text[i] ?? "")) i++;
	return i;
}
