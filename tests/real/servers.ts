// The servers test:real starts (globalSetup.ts), by the context size each group of tests needs.
import { inject } from "vitest";

export const SERVER_CONTEXTS = {
	/** The chat of the issue: a long note, 40 turns, 256 reserved. */
	chat: 2048,
	/** Small enough that a note overflows it and an answer runs into its end. */
	small: 512,
} as const;

export type ServerName = keyof typeof SERVER_CONTEXTS;

/** The base URL (no path) of a server started by the global setup. */
export function serverUrl(name: ServerName): string {
	const url = inject("llamaServers")[name];
	if (!url) throw new Error(`no llama-server "${name}" was started`);
	return url;
}
