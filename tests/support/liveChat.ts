// The terminal chat (scripts/chat.ts) as a person runs it: a real process, with input piped all at
// once (runChat) or written line by line while the output is watched (LiveChat).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export const root = resolve(__dirname, "../..");

export function runChat(args: string[], input: string, env: Record<string, string> = {}, preload?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise((done, fail) => {
		const node = preload ? ["--import", pathToFileURL(preload).href] : [];
		const child = spawn(join(root, "node_modules/.bin/tsx"), [...node, "scripts/chat.ts", ...args], { cwd: root, env: { ...process.env, ...env } });
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
		child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
		child.on("error", fail);
		child.on("close", (code) => done({ code, stdout, stderr }));
		child.stdin.end(input);
	});
}

/** The chat as a person drives it: input written line by line, output watched as it comes. */
export class LiveChat {
	stdout = "";
	stderr = "";
	readonly exited: Promise<number | null>;
	private readonly child: ChildProcessWithoutNullStreams;
	private readonly waiters = new Set<() => void>();

	constructor(args: string[], opts: { env?: Record<string, string>; preload?: string } = {}) {
		const node = opts.preload ? ["--import", pathToFileURL(opts.preload).href] : [];
		this.child = spawn(join(root, "node_modules/.bin/tsx"), [...node, "scripts/chat.ts", ...args], { cwd: root, env: { ...process.env, ...opts.env } });
		const seen = (): void => this.waiters.forEach((check) => check());
		this.child.stdout.on("data", (d: Buffer) => ((this.stdout += d.toString()), seen()));
		this.child.stderr.on("data", (d: Buffer) => ((this.stderr += d.toString()), seen()));
		this.exited = new Promise((done) => this.child.on("close", (code) => (seen(), done(code))));
	}

	get running(): boolean {
		return this.child.exitCode === null && this.child.signalCode === null;
	}

	send(line: string): void {
		this.child.stdin.write(`${line}\n`);
	}

	/** Ends the input, as Ctrl-D does: the chat saves and quits. */
	end(): void {
		this.child.stdin.end();
	}

	interrupt(): void {
		this.child.kill("SIGINT");
	}

	/** Resolves once `pattern` has appeared `times` times in the output (stdout then stderr). */
	until(pattern: string, times = 1): Promise<void> {
		return new Promise((done, fail) => {
			const check = (): void => {
				if (`${this.stdout}\n${this.stderr}`.split(pattern).length - 1 >= times) {
					this.waiters.delete(check);
					done();
				} else if (!this.running) {
					this.waiters.delete(check);
					fail(new Error(`exited before "${pattern}" x${times}\nstdout: ${this.stdout}\nstderr: ${this.stderr}`));
				}
			};
			this.waiters.add(check);
			check();
		});
	}
}
