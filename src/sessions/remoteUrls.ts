// Judges a URL the way a renderer would read it: after undoing what a renderer decodes (entities,
// escapes, percent-encoding, tabs and newlines, backslashes read as slashes). Anything not clearly
// local counts as remote, since model output is untrusted and a remote load can carry note text away.

const NAMED_ENTITIES: Record<string, string> = {
	amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", colon: ":", sol: "/", bsol: "\\", period: ".", excl: "!",
	lpar: "(", rpar: ")", num: "#", percnt: "%", commat: "@", semi: ";", equals: "=", quest: "?", tab: "\t", newline: "\n", nbsp: "\u00a0",
};

/** Undoes character references as HTML and Markdown read them; undefined when one is unknown. */
function decodeReferences(text: string): string | undefined {
	let unknown = false;
	const out = text.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);?/g, (whole, ref: string) => {
		if (ref.startsWith("#")) {
			const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
			return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
		}
		const named = NAMED_ENTITIES[ref.toLowerCase()];
		if (named === undefined) unknown = true;
		return named ?? whole;
	});
	return unknown ? undefined : out;
}

/**
 * True unless `raw` is clearly local: a vault path (relative), an `app:` resource or a `data:` URL.
 * Protocol-relative `//host`, `\\host` (read as `//host`, and a Windows file share), any other scheme,
 * and anything that hides its form (unknown entities) count as remote.
 */
export function isRemoteUrl(raw: string): boolean {
	// Read with and without Markdown's backslash escapes: HTML attributes have none.
	const candidates: string[] = [];
	for (const text of [raw, raw.replace(/\\([!-/:-@[-`{-~])/g, "$1")]) {
		const decoded = decodeReferences(text);
		if (decoded === undefined) return true;
		candidates.push(decoded);
		try {
			candidates.push(decodeURIComponent(decoded));
		} catch {
			// Not percent-decodable: the renderer cannot decode it either.
		}
	}
	return candidates.some((c) => {
		// What the URL parser does first: drop tabs and newlines, trim controls and spaces.
		// eslint-disable-next-line no-control-regex -- control characters are what this looks for
		const s = c.replace(/[\t\n\r]/g, "").replace(/^[\u0000-\u0020]+/, "").replace(/\\/g, "/");
		if (/^(?:data|app):/i.test(s)) return false;
		return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(s) || s.startsWith("//");
	});
}

/** The host a URL points at, for "Image from …"; the address itself (cut) when it has none. */
export function hostOf(url: string): string {
	try {
		const parsed = new URL(url.trim().replace(/\\/g, "/"), "https://invalid.invalid/");
		if (parsed.hostname !== "" && parsed.hostname !== "invalid.invalid") return parsed.hostname;
	} catch {
		// Fall through to the text itself.
	}
	// eslint-disable-next-line no-control-regex -- control characters are what this looks for
	const text = url.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "").trim();
	return text.length > 60 ? `${text.slice(0, 57)}…` : text || "an unknown address";
}

/** The URL to load on request: escapes undone, as the renderer would have used it. */
export function cleanUrl(dest: string, markdown = true): string {
	const unescaped = markdown ? dest.replace(/\\([!-/:-@[-`{-~])/g, "$1") : dest;
	return (decodeReferences(unescaped) ?? unescaped).replace(/[\t\n\r]/g, "").trim();
}
