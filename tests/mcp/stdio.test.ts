// The MCP client against bad stdio servers (tests/support/mcpStub.ts): each gives a clear error,
// nothing hangs, memory stays bounded, and Stop frees a call within 200 ms.
import { afterEach, describe, expect, it } from "vitest";
import { McpClient, McpError, type McpServerConfig } from "../../src/headless";
import { stubConfig, stubSyntaxError } from "../support/mcpStub";
import { nodeTimers } from "../support/nodeTimers";

const open: McpClient[] = [];
async function connect(config: McpServerConfig): Promise<McpClient> {
	const client = await McpClient.connect(config, { loginShell: false });
	open.push(client);
	return client;
}
afterEach(async () => {
	await Promise.all(open.splice(0).map((c) => c.close()));
});

async function tool(client: McpClient, name: string) {
	const found = (await client.listTools()).find((t) => t.name === `${client.name}__${name}`);
	if (found === undefined) throw new Error(`no tool ${name}`);
	return found;
}

const run = (t: Awaited<ReturnType<typeof tool>>, args: Record<string, unknown> = {}, signal = new AbortController().signal) => t.run(args, { signal, callId: "c1" });

async function eventually(check: () => boolean, ms = 3000): Promise<void> {
	const end = Date.now() + ms;
	while (!check()) {
		if (Date.now() > end) throw new Error("timed out waiting");
		await new Promise((r) => nodeTimers.set(() => r(undefined), 10));
	}
}

describe("the MCP client over stdio", () => {
	it("the stub server parses", () => {
		expect(stubSyntaxError()).toBeUndefined();
	});

	it("connects, lists tools as <server>__<tool> asking before they run, and calls one", async () => {
		const client = await connect(stubConfig("stub"));
		expect(client.serverInfo).toMatchObject({ name: "stub", protocolVersion: "2025-11-25" });
		const tools = await client.listTools();
		expect(tools.map((t) => t.name)).toContain("stub__echo");
		expect(tools.every((t) => t.access === "write")).toBe(true);
		const text = await run(await tool(client, "echo"), { text: "hi" });
		expect(text).toContain("echo: hi");
		expect(text).toMatch(/^⟦MCP RESULT stub\/echo⟧ .*never instructions/);
	});

	it("a server that never answers initialize fails with a time-limit error naming initialize", async () => {
		const started = Date.now();
		const err = await McpClient.connect({ ...stubConfig("mute", "silent"), timeoutMs: 400 }, { loginShell: false }).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(McpError);
		expect((err as McpError).kind).toBe("timeout");
		expect((err as McpError).message).toMatch(/did not answer initialize within 400 ms/);
		expect(Date.now() - started).toBeLessThan(5000);
	});

	it("invalid JSON on stdout is a clear protocol error, not a crash or a wait", async () => {
		const started = Date.now();
		const err = (await McpClient.connect({ ...stubConfig("broken", "garbage"), timeoutMs: 10_000 }, { loginShell: false }).catch((e: unknown) => e)) as McpError;
		expect(err).toBeInstanceOf(McpError);
		expect(err.kind).toBe("protocol");
		expect(err.message).toMatch(/not valid JSON/);
		expect(Date.now() - started).toBeLessThan(5000);
	});

	it("a banner line on stdout is logged, not parsed, and the server works", async () => {
		const client = await connect(stubConfig("chatty", "banner"));
		expect(client.logLines().some((l) => l.level === "stdout" && l.text.includes("Stub server starting"))).toBe(true);
		expect(await run(await tool(client, "echo"), { text: "x" })).toContain("echo: x");
	});

	it("an unsupported protocol version is refused with the versions Discover speaks", async () => {
		const err = (await McpClient.connect(stubConfig("old", "oldversion"), { loginShell: false }).catch((e: unknown) => e)) as McpError;
		expect(err.message).toMatch(/speaks MCP version 2023-01-01, which Discover does not support/);
	});

	it("a 50 MB result is cut off with a clear error, and the server keeps working", async () => {
		const client = await connect(stubConfig("big"));
		const err = (await run(await tool(client, "huge")).catch((e: unknown) => e)) as Error;
		expect(err.message).toMatch(/larger than 8\.0 MB/);
		expect(await run(await tool(client, "echo"), { text: "after" })).toContain("echo: after");
	}, 30_000);

	it("a crash mid-call fails the call with the exit code and the server's last stderr", async () => {
		const client = await connect(stubConfig("fragile"));
		const err = (await run(await tool(client, "crash")).catch((e: unknown) => e)) as Error;
		expect(err.message).toMatch(/exited with code 3/);
		expect(err.message).toMatch(/boom: the stub crashed on purpose/);
	});

	it("5,000 tools over ten pages are all listed", async () => {
		const client = await connect(stubConfig("wide", "many"));
		const tools = await client.listTools();
		expect(tools).toHaveLength(5000);
		expect(new Set(tools.map((t) => t.name)).size).toBe(5000);
		expect(tools[4999]?.name).toBe("wide__tool_4999");
	}, 30_000);

	it("a flood of log notifications keeps only the last 200 lines, and the call still answers", async () => {
		const client = await connect(stubConfig("loud"));
		expect(await run(await tool(client, "flood"))).toContain("flooded");
		const lines = client.logLines();
		expect(lines).toHaveLength(200);
		expect(lines[199]?.text).toBe("flood line 99999");
	}, 30_000);

	it("Stop frees the call within 200 ms, though the server never answers, and sends notifications/cancelled", async () => {
		const client = await connect(stubConfig("stuck"));
		const slow = await tool(client, "slow");
		const stop = new AbortController();
		const call = run(slow, {}, stop.signal).catch((e: unknown) => e);
		await new Promise((r) => nodeTimers.set(() => r(undefined), 50));
		const stopped = performance.now();
		stop.abort();
		const err = (await call) as Error;
		expect(performance.now() - stopped).toBeLessThan(200);
		expect(err.message).toMatch(/stopped/);
		await eventually(() => client.logLines().some((l) => l.level === "stderr" && /^cancelled \{"requestId":\d+/.test(l.text)));
	});

	it("progress notifications reach the caller; tools/list_changed is surfaced as an event", async () => {
		const progress: unknown[] = [];
		const client = await McpClient.connect(stubConfig("busy"), { loginShell: false, onProgress: (id, p) => progress.push([id, p.progress, p.total, p.message]) });
		open.push(client);
		expect(await run(await tool(client, "progress"))).toContain("done");
		expect(progress).toEqual([
			["c1", 1, 3, "step 1"],
			["c1", 2, 3, "step 2"],
			["c1", 3, 3, "step 3"],
		]);
		let changed = 0;
		client.onToolsChanged(() => changed++);
		await run(await tool(client, "changed"));
		expect(changed).toBe(1);
	});

	it("a call past the server's time limit fails with a clear error", async () => {
		const client = await connect({ ...stubConfig("lagging"), timeoutMs: 1500 });
		const err = (await run(await tool(client, "slow")).catch((e: unknown) => e)) as Error;
		expect(err.message).toMatch(/did not answer tools\/call within 1500 ms/);
	});

	it("a command that does not exist is named in the error", async () => {
		const err = (await McpClient.connect({ name: "ghost", command: "discover-no-such-command-xyz" }, { loginShell: false }).catch((e: unknown) => e)) as McpError;
		expect(err.kind).toBe("config");
		expect(err.message).toMatch(/"discover-no-such-command-xyz" .* was not found/);
	});

	it("close() ends the process; calls after it fail as closed", async () => {
		const client = await connect(stubConfig("short"));
		const echo = await tool(client, "echo");
		await client.close();
		await expect(run(echo, { text: "late" })).rejects.toThrow(/closed|not running/);
	});
});
