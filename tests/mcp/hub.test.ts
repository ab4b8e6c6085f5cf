// The MCP hub: lazy starts, each server's state, tools turned off, crash restarts at most 3 times a
// minute, every process ended on Disable and on unload, settings changes followed, Stop. Real
// processes (tests/support/mcpStub.ts) where a process is the point; a fake client for the clock.
import { afterEach, describe, expect, it } from "vitest";
import { McpHub, MAX_RESTARTS, RESTART_WINDOW_MS, type HubClient, type HubServer } from "../../src/mcp/hub";
import type { McpServerConfig } from "../../src/mcp/config";
import { McpError } from "../../src/mcp/protocol";
import type { McpSession, McpToolInfo } from "../../src/mcp/session";
import { MCP_STUB_SOURCE, stubConfig } from "../support/mcpStub";
import { nodeTimers } from "../support/nodeTimers";

const hubs: McpHub[] = [];
afterEach(async () => {
	await Promise.all(hubs.splice(0).map((h) => h.close()));
});

/** The stub, printing its pid to stderr first (so a test can check the process is gone). */
function pidStub(name: string, mode = "normal"): McpServerConfig {
	return { name, command: process.execPath, args: ["-e", `process.stderr.write("pid " + process.pid + "\\n");\n${MCP_STUB_SOURCE}`, mode] };
}

function server(config: McpServerConfig, over: Partial<HubServer> = {}): HubServer {
	return { name: config.name, kind: config.url !== undefined ? "http" : "stdio", enabled: true, fingerprint: JSON.stringify(config), config: () => config, ...over };
}

function hubOf(list: () => HubServer[], over: Partial<ConstructorParameters<typeof McpHub>[0]> = {}): McpHub {
	const hub = new McpHub({ servers: list, desktop: true, connectOptions: () => ({ loginShell: false }), ...over });
	hubs.push(hub);
	return hub;
}

async function eventually(check: () => boolean, ms = 5000): Promise<void> {
	const end = Date.now() + ms;
	while (!check()) {
		if (Date.now() > end) throw new Error("timed out waiting");
		await new Promise((r) => nodeTimers.set(() => r(undefined), 10));
	}
}

const alive = (pid: number): boolean => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};

function pidOf(hub: McpHub, name: string): number {
	const line = hub.state(name)?.log.find((l) => l.text.startsWith("pid "));
	if (line === undefined) throw new Error(`no pid in the log of ${name}: ${JSON.stringify(hub.state(name)?.log)}`);
	return Number(line.text.slice(4));
}

describe("the MCP hub", () => {
	it("starts nothing until a turn asks; then only the servers turned on, with their tools named <server>__<tool>", async () => {
		let connects = 0;
		const list = [server(stubConfig("alpha")), server(stubConfig("beta"), { enabled: false })];
		const hub = hubOf(() => list, {
			connect: async (config, opts) => {
				connects++;
				const { McpClient } = await import("../../src/mcp/McpClient");
				return McpClient.connect(config, opts);
			},
		});
		expect(connects).toBe(0);
		expect(hub.states().map((s) => [s.name, s.status])).toEqual([
			["alpha", "idle"],
			["beta", "disabled"],
		]);
		const { tools, problems } = await hub.toolsFor(undefined);
		expect(problems).toEqual([]);
		expect(connects).toBe(1);
		expect(tools.map((t) => t.name)).toContain("alpha__echo");
		expect(tools.some((t) => t.name.startsWith("beta__"))).toBe(false);
		expect(tools.every((t) => t.access === "write")).toBe(true);
		expect(hub.state("alpha")).toMatchObject({ status: "connected", kind: "stdio" });
		expect(hub.state("alpha")?.tools.map((t) => t.name)).toContain("echo");
		// A second turn reuses the running server.
		await hub.toolsFor(undefined);
		expect(connects).toBe(1);
	});

	it("leaves the tools the person turned off out of a turn, but lists them in the state", async () => {
		const list = [server(stubConfig("alpha"), { disabledTools: ["echo", "crash"] })];
		const hub = hubOf(() => list);
		const { tools } = await hub.toolsFor(undefined);
		expect(tools.map((t) => t.name)).not.toContain("alpha__echo");
		expect(tools.map((t) => t.name)).toContain("alpha__slow");
		expect(hub.state("alpha")?.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "crash", "slow"]));
	});

	it("an agent's list names the servers; unknown, turned-off and desktop-only servers are problems, never exceptions", async () => {
		const list = [server(stubConfig("alpha")), server(stubConfig("off"), { enabled: false }), server({ name: "remote", url: "http://127.0.0.1:9/mcp" })];
		const mobile = hubOf(() => list, { desktop: false });
		expect(mobile.states().map((s) => s.status)).toEqual(["desktop-only", "disabled", "idle"]);
		const { tools, problems } = await mobile.toolsFor(["alpha", "off", "nowhere"]);
		expect(tools).toEqual([]);
		expect(problems.map((p) => p.server)).toEqual(["alpha", "off", "nowhere"]);
		expect(problems[0]?.message).toMatch(/desktop app/);
		expect(problems[1]?.message).toMatch(/turned off/);
		expect(problems[2]?.message).toMatch(/no MCP server named "nowhere"/);
	});

	it("a server that fails to start shows failed with why, and the turn goes on without it", async () => {
		const list = [server({ name: "broken", command: "/nonexistent/discover-mcp-server" }), server(stubConfig("alpha"))];
		const hub = hubOf(() => list);
		const { tools, problems } = await hub.toolsFor(undefined);
		expect(tools.map((t) => t.name)).toContain("alpha__echo");
		expect(problems).toHaveLength(1);
		expect(problems[0]?.server).toBe("broken");
		const state = hub.state("broken");
		expect(state?.status).toBe("failed");
		expect(state?.error).toBeTruthy();
		expect(state?.log.some((l) => l.level === "error")).toBe(true);
	});

	it("a secret that is missing is a failed state naming it, and nothing is started", async () => {
		let connects = 0;
		const list = [server(stubConfig("gh"), { config: () => 'The secret "github-token" is not in Obsidian\'s secret storage.' })];
		const hub = hubOf(() => list, { connect: () => (connects++, Promise.reject(new Error("not reached"))) });
		const { problems } = await hub.toolsFor(undefined);
		expect(problems[0]?.message).toMatch(/github-token/);
		expect(hub.state("gh")).toMatchObject({ status: "failed" });
		expect(connects).toBe(0);
	});

	it("a crash is reported, and the next use starts the server again (a new process)", async () => {
		const list = [server(pidStub("alpha"))];
		const hub = hubOf(() => list);
		const first = await hub.toolsFor(undefined);
		await eventually(() => hub.state("alpha")?.log.some((l) => l.text.startsWith("pid ")) === true);
		const pid = pidOf(hub, "alpha");
		const crash = first.tools.find((t) => t.name === "alpha__crash");
		await expect(crash?.run({}, { signal: new AbortController().signal, callId: "c1" })).rejects.toThrow(/exit|stopped|closed/i);
		await eventually(() => hub.state("alpha")?.status === "failed");
		expect(hub.state("alpha")?.error).toMatch(/^The server stopped/);
		expect(hub.state("alpha")?.log.some((l) => l.text.includes("boom"))).toBe(true);
		const again = await hub.toolsFor(undefined);
		expect(again.problems).toEqual([]);
		expect(hub.state("alpha")?.status).toBe("connected");
		await eventually(() => hub.state("alpha")?.log.filter((l) => l.text.startsWith("pid ")).length === 2);
		const pids = hub.state("alpha")?.log.filter((l) => l.text.startsWith("pid ")).map((l) => Number(l.text.slice(4)));
		expect(pids?.[0]).toBe(pid);
		expect(pids?.[1]).not.toBe(pid);
	});

	it(`restarts a crashing server at most ${MAX_RESTARTS} times a minute; Restart starts it at once and the count afresh`, async () => {
		let now = 1_000_000;
		const clients: FakeClient[] = [];
		const list = [server({ name: "flaky", command: "flaky" })];
		const hub = hubOf(() => list, {
			now: () => now,
			connect: () => {
				const c = new FakeClient();
				clients.push(c);
				return Promise.resolve(c);
			},
		});
		await hub.toolsFor(undefined);
		for (let i = 0; i < MAX_RESTARTS; i++) {
			clients.at(-1)?.crash();
			expect(hub.state("flaky")?.status).toBe("failed");
			now += 1000;
			const { problems } = await hub.toolsFor(undefined);
			expect(problems).toEqual([]);
		}
		expect(clients).toHaveLength(1 + MAX_RESTARTS);
		clients.at(-1)?.crash();
		now += 1000;
		const refused = await hub.toolsFor(undefined);
		expect(clients).toHaveLength(1 + MAX_RESTARTS);
		expect(refused.problems[0]?.message).toMatch(/stopped 3 times within a minute/);
		expect(refused.problems[0]?.message).toMatch(/Restart/);
		// A minute after the first restart, one more is allowed.
		now += RESTART_WINDOW_MS;
		expect((await hub.toolsFor(undefined)).problems).toEqual([]);
		expect(clients).toHaveLength(2 + MAX_RESTARTS);
		// Restart from the settings: at once, whatever the count.
		for (let i = 0; i < MAX_RESTARTS + 1; i++) {
			clients.at(-1)?.crash();
			await hub.toolsFor(undefined);
		}
		const before = clients.length;
		const state = await hub.restart("flaky");
		expect(state?.status).toBe("connected");
		expect(clients.length).toBe(before + 1);
	});

	it("Disable (stop) and unload (close) end every process", async () => {
		const list = [server(pidStub("one")), server(pidStub("two"))];
		const hub = hubOf(() => list);
		await hub.toolsFor(undefined);
		await eventually(() => hub.states().every((s) => s.log.some((l) => l.text.startsWith("pid "))));
		const [one, two] = [pidOf(hub, "one"), pidOf(hub, "two")];
		expect(alive(one) && alive(two)).toBe(true);
		await hub.stop("one");
		await eventually(() => !alive(one));
		expect(hub.state("one")?.status).toBe("idle");
		expect(alive(two)).toBe(true);
		await hub.close();
		await eventually(() => !alive(two));
		// After unload nothing starts again.
		const after = await hub.toolsFor(undefined);
		expect(after.tools).toEqual([]);
		expect(after.problems.map((p) => p.server)).toEqual(["one", "two"]);
	});

	it("a server turned off, removed or changed in the settings is stopped before the next turn", async () => {
		let list = [server(pidStub("one")), server(pidStub("two")), server(pidStub("three"))];
		const hub = hubOf(() => list);
		await hub.toolsFor(undefined);
		await eventually(() => hub.states().every((s) => s.log.some((l) => l.text.startsWith("pid "))));
		const pids = ["one", "two", "three"].map((n) => pidOf(hub, n));
		const changed = pidStub("three");
		changed.env = { CHANGED: "1" };
		list = [server(pidStub("one"), { enabled: false }), server(changed)];
		const { tools } = await hub.toolsFor(undefined);
		await eventually(() => !alive(pids[0] ?? 0) && !alive(pids[1] ?? 0) && !alive(pids[2] ?? 0));
		expect(tools.map((t) => t.name)).toContain("three__echo");
		expect(hub.states().map((s) => [s.name, s.status])).toEqual([
			["one", "disabled"],
			["three", "connected"],
		]);
	});

	it("Stop ends the wait for a server that never answers, within 200 ms", async () => {
		const list = [server({ ...stubConfig("mute", "silent"), timeoutMs: 60_000 })];
		const hub = hubOf(() => list);
		const stop = new AbortController();
		const started = Date.now();
		nodeTimers.set(() => stop.abort(), 100);
		const { tools, problems } = await hub.toolsFor(undefined, stop.signal);
		expect(Date.now() - started).toBeLessThan(300);
		expect(tools).toEqual([]);
		expect(problems.some((p) => /Stopped/.test(p.message))).toBe(true);
		expect(hub.state("mute")?.status).toBe("connecting");
	});

	it("keeps the last 200 log lines of a server that floods its log", async () => {
		const list = [server(stubConfig("loud"))];
		const hub = hubOf(() => list);
		const { tools } = await hub.toolsFor(undefined);
		await tools.find((t) => t.name === "loud__flood")?.run({}, { signal: new AbortController().signal, callId: "c1" });
		const log = hub.state("loud")?.log ?? [];
		expect(log).toHaveLength(200);
		expect(log.at(-1)?.text).toMatch(/flood line 99999|Connected/);
	});
});

/** A client whose connection the test ends (a crash). */
class FakeClient implements HubClient {
	readonly session = {} as McpSession;
	private readonly listeners = new Set<(reason: McpError) => void>();
	closed = false;
	serverTools(): Promise<McpToolInfo[]> {
		return Promise.resolve([{ name: "ping", description: "Pings.", inputSchema: { type: "object" } }]);
	}
	logLines() {
		return [];
	}
	onClose(listener: (reason: McpError) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}
	close(): Promise<void> {
		this.closed = true;
		return Promise.resolve();
	}
	crash(): void {
		for (const l of this.listeners) l(new McpError("closed", "exited with code 1"));
	}
}
