// The servers test:real starts, by the context size each group of tests needs. Apart from
// servers.ts because the global setup runs outside the test workers and may not import "vitest".
export const SERVER_CONTEXTS = {
	/** The chat of the issue: a long note, 40 turns, 256 reserved. */
	chat: 2048,
	/** Small enough that a note overflows it and an answer runs into its end. */
	small: 512,
	/** The prompt cache's chat: 20 turns about a long note, the server's own cache counts. */
	cache: 4096,
} as const;

export type ServerName = keyof typeof SERVER_CONTEXTS;
