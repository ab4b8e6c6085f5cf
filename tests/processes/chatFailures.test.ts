// `npm run chat` when things go wrong at once: a send the server cannot take prints one clear line
// (no "discover> " prefix left hanging, no engine kind tag), and Anthropic without a key is refused
// at start, before the first question is typed.
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runChat } from "../support/liveChat";

/** A port with nothing listening on it: taken, then released. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
	const address = server.address();
	await new Promise<void>((done) => server.close(() => done()));
	if (address === null || typeof address === "string") throw new Error("no port");
	return address.port;
}

describe("npm run chat, failures", () => {
	let dir: string;
	beforeAll(async () => {
		dir = await mkdtemp(join(tmpdir(), "discover-chat-fail-"));
	});
	afterAll(async () => {
		await rm(dir, { recursive: true, force: true });
	});

	it("a send to a server that is not there prints the question, then one line saying so", async () => {
		const url = `http://127.0.0.1:${await closedPort()}`;
		const { code, stdout, stderr } = await runChat(["--provider", "ollama", "--model", "llama3.2", "--base-url", url, "--dir", dir], "hello there\n");
		expect(code).toBe(0);
		// The transcript (stdout) shows the question; the failure is one line on stderr, as every notice.
		expect(stdout.split("\n")).toContain("you> hello there");
		const failures = stderr.split("\n").filter((l) => l.startsWith("error: "));
		expect(failures).toHaveLength(1);
		expect(failures[0]).toMatch(/^error: Could not reach Ollama at http:\/\/127\.0\.0\.1:\d+/);
		// Nothing of the engine's tags, and no answer prefix with nothing behind it.
		expect(failures[0]).not.toMatch(/network:/);
		expect(stdout).not.toContain("discover> ");
		// The resume hint starts on a line of its own, not behind a dangling "you> ".
		expect(stdout.endsWith("you> ")).toBe(false);
	});

	it("--provider anthropic without a key says so at start, and exits before asking anything", async () => {
		const env = { DISCOVER_API_KEY: "" };
		const { code, stdout, stderr } = await runChat(["--provider", "anthropic", "--model", "claude-sonnet-4-5", "--dir", dir], "hello\n", env);
		expect(code).toBe(2);
		expect(stderr.trim()).toMatch(/^Anthropic needs an API key: set DISCOVER_API_KEY/);
		expect(stdout).not.toContain("you> ");
	});
});
