// What a chat's turns remember of the outside (MCP) tools, per chat and bounded as one: a warning is
// said once to a chat however many other chats come and go, the lists last offered are each chat's
// own, and only the chats used longest ago are forgotten (a forgotten chat starts afresh).
import { describe, expect, it } from "vitest";
import { MAX_REMEMBERED_CHATS, OutsideToolState, type TurnToolSource } from "../../src/chat/toolSources";
import type { Tool } from "../../src/core/types";
import { manualTimers } from "../support/toolScript";

// The wait for tools never fires here (the hub answers at once).
const timers = manualTimers();

function tool(name: string, description = "d"): Tool {
	return { name: `srv__${name}`, description, parameters: { type: "object", properties: {} }, access: "write", mcp: { server: "srv", tool: name }, run: () => Promise.resolve("") };
}

/** A hub whose server "down" never answers and whose server "srv" offers `tools`. */
function source(tools: () => Tool[]): TurnToolSource {
	return { toolsFor: () => Promise.resolve({ tools: tools(), problems: [{ server: "down", message: "it crashed" }] }) };
}

const turn = async (state: OutsideToolState, chat: string) => (await state.forTurn(undefined, "openai", new AbortController().signal, chat, new Set())).warnings.map((w) => w.code);

describe("the outside tools a chat's turns remember", () => {
	it("a chat in use is told of a server's problem once, however many other chats are told meanwhile", async () => {
		const state = new OutsideToolState(source(() => []), timers);
		let toldA = 0;
		for (let i = 0; i < 700; i++) {
			if (i % 50 === 0) toldA += (await turn(state, "A")).filter((c) => c === "mcp_server_unavailable").length;
			await turn(state, `other-${i}`);
		}
		expect(toldA).toBe(1);
	});

	it("a list change is said to each chat that was offered the old list; a chat forgotten as the longest unused starts afresh", async () => {
		let description = "v1";
		const state = new OutsideToolState(source(() => [tool("echo", description)]), timers);
		await turn(state, "A");
		await turn(state, "B");
		description = "v2";
		expect(await turn(state, "A")).toContain("mcp_tools_changed");
		expect(await turn(state, "B")).toContain("mcp_tools_changed");
		expect(await turn(state, "A")).not.toContain("mcp_tools_changed");
		// B is then the chat used longest ago: once as many others have been used, it is forgotten whole.
		for (let i = 0; i < MAX_REMEMBERED_CHATS; i++) await turn(state, `other-${i}`);
		description = "v3";
		const b = await turn(state, "B");
		expect(b).not.toContain("mcp_tools_changed");
		expect(b).toContain("mcp_server_unavailable");
		expect(state.rememberedChats).toBeLessThanOrEqual(MAX_REMEMBERED_CHATS);
	});
});
