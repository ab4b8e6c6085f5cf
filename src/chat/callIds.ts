// The engine's own tool-call ids. A server's ids cannot be trusted to be unique: some number every
// call `call_0`, some make none, and a panel's chats share one change journal. So each call the loop
// takes gets an id of ours, random, unique across chats and restarts; the server's id is kept beside
// it (ToolCall.serverId) only to answer the server.

/** Makes a new call id; injected in tests so ids are deterministic. */
export type CallIdSource = () => string;

/**
 * 128 random bits, as `dtc_` and 32 hex digits: only `[a-zA-Z0-9_]`, so any dialect accepts it
 * (Anthropic takes `[a-zA-Z0-9_-]`) should it ever go to a server.
 */
export const randomCallId: CallIdSource = () => {
	const bytes = new Uint8Array(16);
	// Web Crypto: a global in Obsidian (Electron, mobile webviews) and in Node 19+ (the terminal chat).
	crypto.getRandomValues(bytes);
	let hex = "";
	for (const b of bytes) hex += b.toString(16).padStart(2, "0");
	return `dtc_${hex}`;
};
