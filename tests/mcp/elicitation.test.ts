// A server's elicitation/create: the client declares the capability only when something can answer
// (the app's person, or a test harness standing in); the request reaches the handler read and cut
// to what can be shown, its defaults given (SEP-1034); decline and cancel go back as they are; an
// answer that does not fit the schema is sent as a cancel; without a handler the request is refused.
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/mcp/McpClient";
import { checkedElicitResult, elicitDefaults, parseElicitRequest, type ElicitHandler, type ElicitRequest } from "../../src/mcp/elicitation";
import { stubConfig } from "../support/mcpStub";

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
		expect(parseElicitRequest({ message: "m", requestedSchema: { type: "object", properties: { a: { type: "array" } } } })).toMatch(/is not a string, number, integer or boolean/);
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
});
