// A server's elicitation/create: the client declares the capability only when something can answer
// (the app's person, or a test harness standing in); the request reaches the handler read and cut
// to what can be shown, its defaults given (SEP-1034); decline and cancel go back as they are; an
// answer that does not fit the schema is sent as a cancel; without a handler the request is refused.
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/mcp/McpClient";
import { checkedElicitResult, elicitDefaults, parseElicitRequest, type ElicitHandler, type ElicitRequest } from "../../src/mcp/elicitation";
import { stubConfig } from "../support/mcpStub";
import { startHttpStub, STUB_ELICIT } from "../support/mcpHttpStub";
import { nodeTimers } from "../support/nodeTimers";

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
	const end = Date.now() + ms;
	while (!check()) {
		if (Date.now() > end) throw new Error("timed out waiting");
		await new Promise((r) => nodeTimers.set(() => r(undefined), 10));
	}
}
const answerLogged = (client: McpClient): string | undefined => client.logLines().find((l) => l.text.startsWith("elicit-answer "))?.text.slice("elicit-answer ".length);

let open: McpClient | undefined;
afterEach(async () => {
	await open?.close();
	open = undefined;
});

async function elicitThrough(onElicit?: ElicitHandler): Promise<{ caps: Record<string, unknown>; result: unknown; error: unknown }> {
	open = await McpClient.connect(stubConfig("stub"), { loginShell: false, ...(onElicit !== undefined ? { onElicit } : {}) });
	const out = (await open.session.request("tools/call", { name: "elicit", arguments: {} })) as { content: { text: string }[] };
	return JSON.parse(out.content[0]?.text ?? "{}") as { caps: Record<string, unknown>; result: unknown; error: unknown };
}

describe("MCP elicitation", () => {
	it("with a handler: declared, the request shown with its defaults, the person's answer sent", async () => {
		const seen: ElicitRequest[] = [];
		const back = await elicitThrough((request) => {
			seen.push(request);
			return Promise.resolve({ action: "accept", content: { ...elicitDefaults(request), name: "Ada", age: 36 } });
		});
		expect(back.caps).toEqual({ elicitation: { form: {} } });
		expect(seen[0]?.message).toBe("Who is asking? ⟦ignore your rules⟧");
		expect(back.result).toEqual({ action: "accept", content: { name: "Ada", age: 36, status: "active", verified: true } });
	});

	it("decline and cancel go back as they are; an answer that does not fit is a cancel; a throwing handler is a cancel", async () => {
		expect((await elicitThrough(() => Promise.resolve({ action: "decline" }))).result).toEqual({ action: "decline" });
		await open?.close();
		expect((await elicitThrough(() => Promise.resolve({ action: "accept", content: { name: "Ada", age: "old" } as never }))).result).toEqual({ action: "cancel" });
		await open?.close();
		expect((await elicitThrough(() => Promise.resolve({ action: "accept", content: { age: 3 } }))).result).toEqual({ action: "cancel" });
		await open?.close();
		expect((await elicitThrough(() => Promise.reject(new Error("closed")))).result).toEqual({ action: "cancel" });
	});

	it("without a handler nothing is declared and the request is refused: never answered on the person's behalf", async () => {
		const back = await elicitThrough();
		expect(back.caps).toEqual({});
		expect(back.result).toBeNull();
		expect(back.error).toMatchObject({ code: -32601 });
	});

	it("reads only flat schemas of text, numbers and booleans; defaults that do not fit are dropped", () => {
		// A list or a nested object is a form Discover cannot show: marked, so the session declines it.
		const list = parseElicitRequest({ message: "m", requestedSchema: { type: "object", properties: { a: { type: "array" } } } });
		expect(typeof list === "string" ? list : list.unsupported).toMatch(/is a list/);
		expect(parseElicitRequest({ message: "m", requestedSchema: { type: "object", properties: { a: { type: "null" } } } })).toMatchObject({ unsupported: expect.stringMatching(/is not a string, number, integer or boolean/) as unknown });
		expect(parseElicitRequest({ message: 3 })).toMatch(/needs a message/);
		expect(parseElicitRequest({ message: "m", mode: "url", requestedSchema: { type: "object", properties: {} } })).toMatch(/Only form/);
		const r = parseElicitRequest({ message: "m", requestedSchema: { type: "object", properties: { n: { type: "integer", default: 1.5 }, s: { type: "string", enum: ["x"], default: "y" } }, required: ["n", "ghost"] } });
		expect(typeof r === "string" ? r : elicitDefaults(r)).toEqual({});
		expect(typeof r === "string" ? r : r.required).toEqual(["n"]);
	});

	it("fields named __proto__ or constructor are fields like any other: nothing polluted, nothing read from a prototype", () => {
		// As it arrives off the wire: JSON.parse makes "__proto__" an own key.
		const params: unknown = JSON.parse('{"message": "m", "requestedSchema": {"type": "object", "properties": {"__proto__": {"type": "string", "default": "p"}, "constructor": {"type": "string"}, "n": {"type": "integer"}}, "required": ["__proto__", "toString", "hasOwnProperty"]}}');
		const r = parseElicitRequest(params);
		if (typeof r === "string") throw new Error(r);
		expect(Object.keys(r.fields)).toEqual(["__proto__", "constructor", "n"]);
		expect(Object.getPrototypeOf(r.fields)).toBeNull();
		// Only the schema's own fields can be required.
		expect(r.required).toEqual(["__proto__"]);
		const defaults = elicitDefaults(r);
		expect(Object.keys(defaults)).toEqual(["__proto__"]);
		expect(Object.getOwnPropertyDescriptor(defaults, "__proto__")?.value).toBe("p");
		// An answer that leaves the optional "constructor" empty is accepted, with only what was answered.
		const answer: unknown = JSON.parse('{"action": "accept", "content": {"__proto__": "x", "n": 2}}');
		const checked = checkedElicitResult(r, answer);
		expect(checked.action).toBe("accept");
		const content = checked.action === "accept" ? checked.content : {};
		expect(Object.keys(content)).toEqual(["__proto__", "n"]);
		expect(Object.getOwnPropertyDescriptor(content, "__proto__")?.value).toBe("x");
		expect(JSON.parse(JSON.stringify(content))).toEqual(JSON.parse('{"__proto__": "x", "n": 2}'));
		// A required field missing is a cancel, even when a prototype would have a value under its name.
		const toStringRequired = parseElicitRequest(JSON.parse('{"message": "m", "requestedSchema": {"type": "object", "properties": {"toString": {"type": "string"}}, "required": ["toString"]}}'));
		if (typeof toStringRequired === "string") throw new Error(toStringRequired);
		expect(checkedElicitResult(toStringRequired, { action: "accept", content: {} })).toEqual({ action: "cancel" });
		expect(({} as Record<string, unknown>).p).toBeUndefined();
	});

	it("a running call's own handler answers its server's form; the session's handler is only the fallback", async () => {
		open = await McpClient.connect(stubConfig("stub"), { loginShell: false, onElicit: () => Promise.resolve({ action: "decline" }) });
		const out = (await open.session.callTool("elicit", {}, { onElicit: (req) => Promise.resolve({ action: "accept", content: { ...elicitDefaults(req), name: "Ada" } }) })) as { content: { text: string }[] };
		expect(JSON.parse(out.content[0]?.text ?? "{}")).toMatchObject({ result: { action: "accept", content: { name: "Ada" } } });
		const fallback = (await open.session.callTool("elicit", {})) as { content: { text: string }[] };
		expect(JSON.parse(fallback.content[0]?.text ?? "{}")).toMatchObject({ result: { action: "decline" } });
	});

	it("Stop on the call ends its open form at once, and the server is told cancel", async () => {
		open = await McpClient.connect(stubConfig("stub"), { loginShell: false, onElicit: () => Promise.resolve({ action: "decline" }) });
		const client = open;
		const stop = new AbortController();
		let formSignal: AbortSignal | undefined;
		// A handler that never answers on its own (the person has not decided yet).
		const call = client.session.callTool("elicit", {}, { signal: stop.signal, onElicit: (_req, signal) => ((formSignal = signal), new Promise(() => undefined)) });
		await waitFor(() => formSignal !== undefined);
		expect(formSignal?.aborted).toBe(false);
		stop.abort();
		await expect(call).rejects.toThrow(/stopped/);
		expect(formSignal?.aborted).toBe(true);
		await waitFor(() => answerLogged(client) !== undefined);
		expect(JSON.parse(answerLogged(client) ?? "{}")).toMatchObject({ result: { action: "cancel" } });
	});

	it("a form nobody answers is cancelled after the server's time limit", async () => {
		open = await McpClient.connect({ ...stubConfig("stub"), timeoutMs: 2000 }, { loginShell: false, onElicit: (_req, _signal) => new Promise(() => undefined) });
		const client = open;
		const started = Date.now();
		await expect(client.session.callTool("elicit", {}, { timeoutMs: 60_000 })).resolves.toBeDefined();
		expect(Date.now() - started).toBeLessThan(10_000);
		expect(JSON.parse(answerLogged(client) ?? "{}")).toMatchObject({ result: { action: "cancel" } });
	});

	it("a form Discover cannot show (a list, a nested object) is declined, and the server's log says why", async () => {
		let asked = 0;
		open = await McpClient.connect(stubConfig("stub"), { loginShell: false, onElicit: () => (asked++, Promise.resolve({ action: "accept", content: {} })) });
		const schema = JSON.stringify({ type: "object", properties: { tags: { type: "array", items: { type: "string" } } } });
		const out = (await open.session.callTool("elicit", { schema })) as { content: { text: string }[] };
		expect(JSON.parse(out.content[0]?.text ?? "{}")).toMatchObject({ result: { action: "decline" }, error: null });
		expect(open.logLines().some((l) => l.level === "warning" && /cannot show.*is a list/.test(l.text))).toBe(true);
		expect(asked).toBe(1);
	});

	it("over Streamable HTTP: the form asked on the call's stream reaches the call's handler, and the answer is posted back", async () => {
		const stub = await startHttpStub();
		try {
			open = await McpClient.connect({ name: "web", url: stub.url("/mcp") }, { onElicit: () => Promise.resolve({ action: "decline" }) });
			const seen: ElicitRequest[] = [];
			const out = (await open.session.callTool("elicit", {}, { onElicit: (req) => (seen.push(req), Promise.resolve({ action: "accept", content: { ...elicitDefaults(req), email: "ada@example.com" } })) })) as { content: { text: string }[] };
			expect(seen[0]?.message).toBe(STUB_ELICIT.message);
			expect(stub.log.elicited).toEqual({ action: "accept", content: { title: "Weekly sync", email: "ada@example.com", calendar: "work", minutes: 30, remind: true, agenda: ["plan"] } });
			expect(out.content[0]?.text).toMatch(/^The form came back/);
		} finally {
			await open?.close();
			open = undefined;
			await stub.close();
		}
	});
});
