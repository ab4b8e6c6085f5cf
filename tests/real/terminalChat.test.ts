// The terminal chat (`npm run chat`) against llama.cpp: one question, one answer, exit 0, saved.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { NodeFileStore } from "../../src/sessions/nodeStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { runChat } from "../support/liveChat";
import { MODEL } from "./engine";
import { serverUrl } from "./servers";

let dir: string | undefined;
afterEach(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
});

it("npm run chat: one question, one answer, exit 0, and the chat saved with the answer", async () => {
	dir = mkdtempSync(join(tmpdir(), "discover-real-chat-"));
	const url = serverUrl("chat");
	const { code, stdout, stderr } = await runChat(["--provider", "openai", "--model", MODEL, "--base-url", `${url}/v1`, "--context", "2048", "--dir", dir], "Hello! Who are you?\n");
	expect(code, `stdout: ${stdout}\nstderr: ${stderr}`).toBe(0);
	const sessions = new SessionManager(new NodeFileStore(dir));
	const [summary, ...others] = await sessions.list();
	expect(others).toHaveLength(0);
	const saved = await sessions.load(summary?.id ?? "");
	expect(saved.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
	const answer = saved.messages[1];
	expect(answer?.stats?.reported.prompt).toBe(true);
	// What was saved is what was printed.
	expect(stdout).toContain((answer?.content ?? "").trim().split("\n")[0] ?? "");
}, 90_000);
