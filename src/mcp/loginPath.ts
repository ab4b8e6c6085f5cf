// The PATH of the person's login shell. An app started from the dock or a launcher gets a bare PATH
// without Homebrew, nvm, ~/.local/bin…, so `npx`, `uvx` and `docker` would not be found; a terminal's
// login shell has them. Asked once, with a time limit; on Windows (no login shell) the app's PATH.
/* global process -- reached only from stdioChannel.ts, desktop only */

type ChildProcessModule = typeof import("node:child_process");

const MARK = "__DISCOVER_PATH__";
const TIMEOUT_MS = 5000;
let cached: Promise<string | undefined> | undefined;

/** `cp`: Node's child_process, required by the caller behind its desktop check. */
export function loginShellPath(cp: ChildProcessModule): Promise<string | undefined> {
	cached ??= lookUp(cp);
	return cached;
}

function lookUp(cp: ChildProcessModule): Promise<string | undefined> {
	if (process.platform === "win32") return Promise.resolve(undefined);
	const shell = process.env.SHELL !== undefined && process.env.SHELL !== "" ? process.env.SHELL : process.platform === "darwin" ? "/bin/zsh" : "/bin/sh";
	return new Promise((resolve) => {
		cp.execFile(shell, ["-ilc", `printf '${MARK}%s${MARK}' "$PATH"`], { timeout: TIMEOUT_MS, maxBuffer: 1024 * 1024, env: process.env }, (err, stdout) => {
			const found = new RegExp(`${MARK}(.*?)${MARK}`, "s").exec(String(stdout));
			resolve(err === null && found?.[1] !== undefined && found[1] !== "" ? found[1] : process.env.PATH);
		});
	});
}
