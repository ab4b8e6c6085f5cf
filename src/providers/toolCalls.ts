// Tool calls as they stream: each dialect says when a call starts (id, name), hands over its
// argument text in fragments (OpenAI, Anthropic) or whole (Ollama), and when it ends. This keeps
// them in order, tells the listener as they grow, and parses the arguments once at the end:
// malformed JSON becomes a marked call (`invalidArguments`) the loop reports to the model, never a
// crash. Fragments are joined as decoded text, after the request pump has put every multi-byte
// character back together, so a split anywhere in the bytes changes nothing.
import type { ToolCall, ToolCallProgress } from "../core/types";
import { LLMError } from "./errors";

/** More calls than this in one answer is a runaway server, not a model at work. */
export const MAX_TOOL_CALLS = 128;

/** The error for an answer with more than MAX_TOOL_CALLS calls (the dialects' and the turn loop's). */
export function runawayCallsError(): LLMError {
	return new LLMError("protocol", `The model asked for more than ${MAX_TOOL_CALLS} tool calls in one answer; the server may be stuck repeating itself.`);
}

/** Shown to the model (and the person) when the argument text is not a JSON object. */
const QUOTED_ARGUMENTS_CHARS = 2000;

interface PendingCall {
	index: number;
	id: string;
	name: string;
	/** Argument text as it streams (OpenAI, Anthropic). */
	parts: string[];
	/** Arguments that came whole (Ollama, or Anthropic's `input` on the block start). */
	whole?: unknown;
	/** Text seen so far, joined lazily for progress events. */
	text: string;
	ended: boolean;
}

/** FNV-1a, 32 bits: a short stable digest for made-up call ids. */
function digest(text: string): string {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193);
	}
	return (hash >>> 0).toString(36);
}

/**
 * An id for a call the server left without one. Anthropic accepts `[a-zA-Z0-9_-]` only, and a
 * session may move between providers, so made-up ids keep to that. `seed` comes from the stream
 * (Ollama's `created_at`) so a replay gives the same id; without one, a random nonce keeps ids
 * of separate answers apart.
 */
export function makeToolCallId(seed: string, index: number, name: string): string {
	return `call_${digest(`${seed}|${index}|${name}`)}${index.toString(36)}`;
}

/** The arguments of a call as text: what streamed, or the whole object the server sent. */
function argumentsText(call: PendingCall): string {
	if (call.parts.length > 0) return call.parts.join("");
	if (call.whole === undefined) return "";
	return typeof call.whole === "string" ? call.whole : JSON.stringify(call.whole);
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function quoted(text: string): string {
	return text.length <= QUOTED_ARGUMENTS_CHARS ? text : `${text.slice(0, QUOTED_ARGUMENTS_CHARS)}… (${text.length.toLocaleString("en-US")} characters in all)`;
}

/** Parses a call's argument text: `""` is `{}`; anything but a JSON object is marked invalid. */
export function parseToolArguments(text: string): Pick<ToolCall, "arguments" | "invalidArguments"> {
	const trimmed = text.trim();
	if (trimmed === "" || trimmed === "null") return { arguments: {} };
	let value: unknown;
	try {
		value = JSON.parse(trimmed);
	} catch (err) {
		const why = err instanceof Error ? err.message : String(err);
		return { arguments: {}, invalidArguments: `The arguments are not valid JSON (${why}). They were: ${quoted(text)}` };
	}
	if (isObject(value)) return { arguments: value };
	return { arguments: {}, invalidArguments: `The arguments must be a JSON object; they were: ${quoted(text)}` };
}

export interface ToolCallSink {
	/** Called with every character of argument text (and each call's name): the answer's size cap. */
	grow(chars: number, what: "arguments"): void;
	onToolCall?: (progress: ToolCallProgress) => void;
}

/** Collects one answer's tool calls, keyed by whatever the dialect numbers them by. */
export class ToolCallCollector {
	private readonly calls: PendingCall[] = [];
	private readonly byKey = new Map<string | number, PendingCall>();
	private readonly nonce = Math.random().toString(36).slice(2, 10);

	constructor(private readonly sink: ToolCallSink) {}

	get size(): number {
		return this.calls.length;
	}

	has(key: string | number): boolean {
		return this.byKey.has(key);
	}

	/** The id of the call under `key`, if there is one. */
	idOf(key: string | number): string | undefined {
		return this.byKey.get(key)?.id;
	}

	/**
	 * A call begins. A key already in use starts a new call (servers that number every call of a
	 * batch 0): the old one ends. `seed` makes the id when the server sent none.
	 */
	start(key: string | number, id: string | undefined, name: string, seed?: string): void {
		const previous = this.byKey.get(key);
		if (previous) this.end(key);
		if (this.calls.length >= MAX_TOOL_CALLS) {
			throw runawayCallsError();
		}
		this.sink.grow(name.length, "arguments");
		const index = this.calls.length;
		const call: PendingCall = { index, id: id !== undefined && id !== "" ? id : makeToolCallId(seed ?? this.nonce, index, name), name, parts: [], text: "", ended: false };
		this.calls.push(call);
		this.byKey.set(key, call);
		this.emit(call, "start");
	}

	/** A name that came after the call began (some servers send it in a later fragment). */
	name(key: string | number, name: string): void {
		const call = this.byKey.get(key);
		if (!call || call.name !== "" || name === "") return;
		this.sink.grow(name.length, "arguments");
		call.name = name;
	}

	/** More argument text for the call under `key`. */
	arguments(key: string | number, fragment: string): void {
		const call = this.byKey.get(key);
		if (!call || fragment === "") return;
		this.sink.grow(fragment.length, "arguments");
		call.parts.push(fragment);
		call.text += fragment;
		this.emit(call, "arguments", fragment);
	}

	/** Arguments that came whole, as an object (or a JSON string). Streamed text, if any, wins. */
	whole(key: string | number, value: unknown): void {
		const call = this.byKey.get(key);
		if (!call || value === undefined) return;
		call.whole = value;
		const text = argumentsText(call);
		if (call.parts.length === 0 && text !== "" && text !== "{}") {
			this.sink.grow(text.length, "arguments");
			call.text = text;
			this.emit(call, "arguments", text);
		}
	}

	/** The call under `key` is complete. */
	end(key: string | number): void {
		const call = this.byKey.get(key);
		if (!call || call.ended) return;
		call.ended = true;
		this.emit(call, "end");
	}

	/** Every call, ended and parsed, in the order they began. */
	result(): ToolCall[] {
		const out: ToolCall[] = [];
		for (const call of this.calls) {
			if (!call.ended) {
				call.ended = true;
				this.emit(call, "end");
			}
			const parsed = call.parts.length === 0 && isObject(call.whole) ? { arguments: call.whole } : parseToolArguments(argumentsText(call));
			const done: ToolCall = { id: call.id, name: call.name, arguments: parsed.arguments };
			if (call.name === "") done.invalidArguments = "The call named no tool.";
			else if (parsed.invalidArguments !== undefined) done.invalidArguments = parsed.invalidArguments;
			out.push(done);
		}
		return out;
	}

	private emit(call: PendingCall, phase: ToolCallProgress["phase"], delta?: string): void {
		const listener = this.sink.onToolCall;
		if (!listener) return;
		const progress: ToolCallProgress = { phase, index: call.index, id: call.id, name: call.name, argumentsText: call.text };
		if (delta !== undefined) progress.delta = delta;
		listener(progress);
	}
}
