// The one check of an MCP server's address, shared by the settings (paste, form, saved list) and the
// client's config: an absolute URL whose scheme is http or https.

/** Why `url` is not an http(s) address ("invalid": not an address; "protocol": another scheme), or undefined. */
export function httpUrlProblem(url: string): "invalid" | "protocol" | undefined {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return "invalid";
	}
	return parsed.protocol === "http:" || parsed.protocol === "https:" ? undefined : "protocol";
}
