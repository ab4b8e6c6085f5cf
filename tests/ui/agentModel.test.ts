// @vitest-environment happy-dom
// The check a chat runs on the agent it takes: the agent's model against ITS provider's list (an
// agent naming another provider than the settings' is listed there), a list that never comes or
// fails proves nothing, and a chat's own different model skips the check.
import { afterEach, describe, expect, it } from "vitest";
import type { Agent } from "../../src/agents/agent";
import type { ProviderName } from "../../src/providers/types";
import type { AgentServerFields } from "../../src/settings/keyBinding";
import { agentModelCheck } from "../../src/ui/agents/agentModel";
import type { ChatRuntime } from "../../src/ui/host";
import { forgetModelLists } from "../../src/ui/panel/modelList";

afterEach(() => forgetModelLists());

const settings = { provider: "ollama" as ProviderName, baseUrl: "http://localhost:11434" };
const agent = (model: string, provider?: ProviderName): Agent => ({ path: "Discover/Agents/A.md", name: "A", model, ...(provider ? { provider } : {}), tools: [], sources: [], instructions: "" });

function runtime(lists: Partial<Record<ProviderName, string[] | "never" | "fails">>) {
	const asked: (ProviderName | undefined)[] = [];
	const rt = {
		listModels: (_signal?: AbortSignal, server?: AgentServerFields) => {
			const provider = server?.provider;
			asked.push(provider);
			const list = lists[provider ?? settings.provider];
			if (list === "never") return new Promise<never>(() => undefined);
			if (list === "fails" || list === undefined) return Promise.reject(new Error("offline"));
			return Promise.resolve(list.map((id) => ({ id })));
		},
	} as unknown as ChatRuntime;
	return { rt, asked };
}

describe("agentModelCheck", () => {
	it("lists the agent's own provider's models: an Anthropic agent is checked against Anthropic's list", async () => {
		const { rt, asked } = runtime({ ollama: ["llama3:latest"], anthropic: ["claude-sonnet-4-5-20250929"] });
		const check = agentModelCheck(rt, settings)!;
		expect(await check(agent("claude-sonnet-4-5", "anthropic"))).toBeUndefined();
		expect(await check(agent("llama3", "anthropic"))).toEqual({ path: "Discover/Agents/A.md", field: "model", value: "llama3" });
		expect(await check(agent("llama3"))).toBeUndefined();
		expect(asked).toEqual(["anthropic", undefined]);
	});

	it("a list that fails or never comes proves nothing", async () => {
		const failing = agentModelCheck(runtime({ ollama: "fails" }).rt, settings)!;
		expect(await failing(agent("anything"))).toBeUndefined();
		const silent = agentModelCheck(runtime({ ollama: "never" }).rt, settings, undefined, 20)!;
		expect(await silent(agent("anything"))).toBeUndefined();
	});

	it("a chat using its own, different model does not check the agent's", async () => {
		const { rt, asked } = runtime({ ollama: ["llama3.2"] });
		expect(await agentModelCheck(rt, settings, "llama3.2")!(agent("ghost"))).toBeUndefined();
		expect(asked).toEqual([]);
		expect(await agentModelCheck(rt, settings, "ghost")!(agent("ghost"))).toMatchObject({ field: "model", value: "ghost" });
	});

	it("no check when the engine cannot list models", () => {
		expect(agentModelCheck({} as ChatRuntime, settings)).toBeUndefined();
	});
});
