// What each adapter puts on the wire, as the protocol server records it.
import { describe, expect, it } from "vitest";
import type { GenerateRequest, PromptMessage } from "../../src/core/types";
import { createAdapter } from "../../src/providers";
import { CONTINUATION_PROMPT, toAnthropicPrompt } from "../../src/providers/anthropic";
import { baseUrlFor, CHAT_PATHS, streamScenario } from "../support/providerStreams";
import { memoryTransport } from "../support/memoryTransport";
import { TRANSPORTS, useProviderServer } from "../support/transports";

const messages: PromptMessage[] = [
	{ role: "system", content: "You are Discover." },
	{ role: "system", content: "Summary of earlier turns." },
	{ role: "assistant", content: "Earlier answer." },
	{ role: "user", content: "First question" },
	{ role: "user", content: "…and a follow-up" },
];
const req: GenerateRequest = { purpose: "chat", messages, maxTokens: 300, contextWindow: 6000 };
const KEY = "sk-test-0123456789abcdefghij";

for (const { name, load } of TRANSPORTS) {
	describe(`wire format over the ${name} transport`, () => {
		const env = useProviderServer(load);

		it("ollama: /api/chat, stream, num_ctx = contextWindow and num_predict = maxTokens, always", async () => {
			env.server.route("POST", CHAT_PATHS.ollama, streamScenario("ollama", ["ok"]));
			await createAdapter({ provider: "ollama", baseUrl: `${env.server.url}/`, model: "llama3.2", transport: env.transport }).generate(req);
			const [sent] = env.server.requests;
			expect(sent?.path).toBe("/api/chat");
			expect(sent?.json).toEqual({
				model: "llama3.2",
				messages: messages.map((m) => ({ role: m.role, content: m.content })),
				stream: true,
				options: { num_ctx: 6000, num_predict: 300 },
			});
			if (name === "node") expect(sent?.headers.origin).toBeUndefined();
		});

		it("openai: /chat/completions under the /v1 base, stream_options.include_usage, max_tokens, bearer key", async () => {
			env.server.route("POST", CHAT_PATHS.openai, streamScenario("openai", ["ok"]));
			await createAdapter({ provider: "openai", baseUrl: baseUrlFor("openai", env.server.url), model: "gpt-4o-mini", apiKey: KEY, transport: env.transport }).generate(req);
			const [sent] = env.server.requests;
			expect(sent?.path).toBe("/v1/chat/completions");
			expect(sent?.headers.authorization).toBe(`Bearer ${KEY}`);
			expect(sent?.json).toMatchObject({ model: "gpt-4o-mini", stream: true, stream_options: { include_usage: true }, max_tokens: 300 });
		});

		it("anthropic: /v1/messages, top-level system, alternating turns opening with the user, headers", async () => {
			env.server.route("POST", CHAT_PATHS.anthropic, streamScenario("anthropic", ["ok"]));
			await createAdapter({ provider: "anthropic", baseUrl: env.server.url, model: "claude-test", apiKey: KEY, fromApp: true, transport: env.transport }).generate(req);
			const [sent] = env.server.requests;
			expect(sent?.path).toBe("/v1/messages");
			expect(sent?.headers["x-api-key"]).toBe(KEY);
			expect(sent?.headers["anthropic-version"]).toBe("2023-06-01");
			expect(sent?.headers["anthropic-dangerous-direct-browser-access"]).toBe("true");
			expect(sent?.json).toEqual({
				model: "claude-test",
				// Cache breakpoints: the end of the system text, and the turn before the latest user turn.
				system: [{ type: "text", text: "You are Discover.\n\nSummary of earlier turns.", cache_control: { type: "ephemeral" } }],
				messages: [
					{ role: "user", content: CONTINUATION_PROMPT },
					{ role: "assistant", content: [{ type: "text", text: "Earlier answer.", cache_control: { type: "ephemeral" } }] },
					{ role: "user", content: "First question\n\n…and a follow-up" },
				],
				max_tokens: 300,
				stream: true,
			});
		});

		it("a pasted key's surrounding whitespace and newline are not sent", async () => {
			env.server.route("POST", CHAT_PATHS.openai, streamScenario("openai", ["ok"]));
			env.server.route("POST", CHAT_PATHS.anthropic, streamScenario("anthropic", ["ok"]));
			await createAdapter({ provider: "openai", baseUrl: baseUrlFor("openai", env.server.url), model: "m", apiKey: ` ${KEY}\n`, transport: env.transport }).generate(req);
			await createAdapter({ provider: "anthropic", baseUrl: env.server.url, model: "m", apiKey: `${KEY}\r\n`, transport: env.transport }).generate(req);
			expect(env.server.requests.map((r) => r.headers.authorization ?? r.headers["x-api-key"])).toEqual([`Bearer ${KEY}`, KEY]);
		});

		it("anthropic: no browser-access header unless the request comes from the app", async () => {
			env.server.route("POST", CHAT_PATHS.anthropic, streamScenario("anthropic", ["ok"]));
			await createAdapter({ provider: "anthropic", baseUrl: env.server.url, model: "c", apiKey: KEY, transport: env.transport }).generate(req);
			expect(env.server.requests[0]?.headers["anthropic-dangerous-direct-browser-access"]).toBeUndefined();
		});
	});
}

describe("toAnthropicPrompt, examples", () => {
	it("drops an answer stopped before its first token, which Anthropic would refuse as empty", () => {
		const prompt = toAnthropicPrompt([
			{ role: "user", content: "Tell me a story" },
			{ role: "assistant", content: "" },
			{ role: "user", content: "Shorter, please" },
		]);
		expect(prompt.messages).toEqual([{ role: "user", content: "Tell me a story\n\nShorter, please" }]);
	});
});

describe("base URL", () => {
	it.each([
		["ollama", "", "http://localhost:11434/api/chat"],
		["ollama", "  ", "http://localhost:11434/api/chat"],
		["openai", " http://localhost:1234/v1/ ", "http://localhost:1234/v1/chat/completions"],
		["anthropic", "", "https://api.anthropic.com/v1/messages"],
	] as const)("%s with %j posts to %s", async (provider, baseUrl, url) => {
		const transport = memoryTransport({ chunks: [] });
		await createAdapter({ provider, baseUrl, model: "m", transport }).generate(req).catch(() => undefined);
		expect(transport.calls[0]?.url).toBe(url);
	});

	it.each(["localhost:11434", "not a url", "ftp://localhost:11434"])("%j is a bad_request that says what an address looks like", (baseUrl) => {
		let thrown: unknown;
		try {
			createAdapter({ provider: "ollama", baseUrl, model: "m" });
		} catch (err) {
			thrown = err;
		}
		expect(thrown).toMatchObject({ kind: "bad_request" });
		expect((thrown as Error).message).toContain("http://localhost:11434");
	});
});

describe("toAnthropicPrompt", () => {
	it("never sends a system-role message, and alternates for any message sequence", async () => {
		const fc = (await import("fast-check")).default;
		fc.assert(
			fc.property(
				fc.array(fc.record({ role: fc.constantFrom("system" as const, "user" as const, "assistant" as const), content: fc.oneof(fc.string({ minLength: 1 }), fc.constantFrom("", " ", "\n")) }), { maxLength: 12 }),
				(msgs) => {
					const prompt = toAnthropicPrompt(msgs);
					expect(prompt.messages[0]?.role).toBe("user");
					const text = (c: string | unknown[]): string => (typeof c === "string" ? c : JSON.stringify(c));
					prompt.messages.forEach((m, i) => {
						expect(m.role).not.toBe("system");
						// Anthropic refuses blank turns.
						expect(text(m.content).trim()).not.toBe("");
						if (i > 0) expect(m.role).not.toBe(prompt.messages[i - 1]?.role);
					});
					// Every non-system message's text survives.
					const joined = prompt.messages.map((m) => text(m.content)).join("\n\n");
					for (const m of msgs) if (m.role !== "system" && m.content.trim() !== "") expect(joined).toContain(m.content);
					const systems = msgs.filter((m) => m.role === "system" && m.content.trim() !== "");
					expect(prompt.system).toBe(systems.length > 0 ? systems.map((m) => m.content).join("\n\n") : undefined);
				},
			),
		);
	});
});
