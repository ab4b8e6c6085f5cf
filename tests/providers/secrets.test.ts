// An API key never appears in an error: a key is fed through every error path (servers that echo
// it back, in full or in part) and every trace of each error is searched for it.
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { GenerateRequest } from "../../src/core/types";
import { createAdapter, type ProviderConfig, type ProviderName } from "../../src/providers";
import type { Scenario } from "../support/providerServer";
import { ProviderServer } from "../support/providerServer";
import { errorScenario, httpError } from "../support/providerErrors";
import { baseUrlFor, CHAT_PATHS, headersFor, midStreamError, streamScenario, MULTIBYTE_TOKENS } from "../support/providerStreams";
import { TRANSPORTS } from "../support/transports";
import { ChatService } from "../../src/chat/ChatService";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";

const KEY = "sk-proj-Zq81vXkq0PLm4hT7sEcReT9aBcDeFgHiJ";
const PARTIAL = `${KEY.slice(0, 11)}****${KEY.slice(-12)}`;
/** Scenarios that need short time limits; the others keep the defaults, so a busy machine can't turn them into timeouts. */
const TIMEOUT = "timeout:";

function scenarios(dialect: ProviderName): Record<string, Scenario> {
	const echo = `Incorrect API key provided: ${KEY}`;
	return {
		auth: errorScenario(httpError(dialect, 401, echo, "invalid_api_key")),
		authPartial: errorScenario(httpError(dialect, 401, `Incorrect API key provided: ${PARTIAL}`, "invalid_api_key")),
		forbidden: errorScenario(httpError(dialect, 403, echo, "permission_error")),
		notFound: errorScenario(httpError(dialect, 404, `model not found for key ${KEY}`, "not_found_error")),
		rateLimit: errorScenario(httpError(dialect, 429, `rate limited: ${KEY}`, "rate_limit_error", { "retry-after": "1" })),
		server: errorScenario(httpError(dialect, 500, `internal: ${KEY}`, "api_error")),
		overloaded: errorScenario(httpError(dialect, 529, `overloaded ${KEY}`, "overloaded_error")),
		badRequest: errorScenario(httpError(dialect, 400, `bad ${KEY}`, "invalid_request_error")),
		overflow: errorScenario(httpError(dialect, 400, `prompt is too long for ${KEY}: maximum context length`, "invalid_request_error")),
		plainText: { status: 502, headers: { "content-type": "text/plain" }, body: `upstream said ${KEY}` },
		midStream: { headers: headersFor(dialect), body: midStreamError(dialect, ["a"], `crash ${KEY}`) },
		malformed: { headers: headersFor(dialect), body: dialect === "ollama" ? `{"key":"${KEY}"\n` : `data: {"key":"${KEY}"\n\n` },
		reset: streamScenario(dialect, MULTIBYTE_TOKENS, {}, { resetAfterBytes: 40 }),
		noTerminator: streamScenario(dialect, [KEY], { noTerminator: true }),
		[`${TIMEOUT}stall`]: streamScenario(dialect, MULTIBYTE_TOKENS, {}, { stallAfterBytes: 30 }),
		[`${TIMEOUT}slow`]: streamScenario(dialect, ["x"], {}, { firstByteDelayMs: 200 }),
	};
}

const req: GenerateRequest = { purpose: "chat", messages: [{ role: "user", content: "hi" }], maxTokens: 10, contextWindow: 1000 };

function traces(err: unknown): string[] {
	const e = err as Error;
	return [String(err), e.message, e.stack ?? "", JSON.stringify(err), inspect(err, { depth: 8, showHidden: true })];
}

describe("the API key stays out of saved sessions", () => {
	let server: ProviderServer;
	beforeAll(async () => {
		server = await ProviderServer.start();
	});
	afterAll(() => server.close());

	for (const dialect of ["ollama", "openai", "anthropic"] as ProviderName[]) {
		it(`${dialect}: failed turns whose errors echo the key save the person's words, not the key`, async () => {
			const store = new MemoryFileStore();
			const chat = new ChatService({
				adapter: createAdapter({ provider: dialect, baseUrl: baseUrlFor(dialect, server.url), model: "m", apiKey: KEY }),
				sessions: new SessionManager(store, { onWarning: () => undefined }),
			});
			const all = scenarios(dialect);
			for (const label of ["auth", "authPartial", "server", "midStream", "overflow"]) {
				const scenario = all[label];
				if (!scenario) throw new Error(`no scenario ${label}`);
				server.reset();
				server.route("POST", CHAT_PATHS[dialect], scenario);
				await expect(chat.sendMessage(`Question after ${label}`)).rejects.toMatchObject({ kind: expect.any(String) as unknown });
			}
			await chat.flush();
			const saved = [...store.files.values()].join("\n");
			expect(saved).toContain("Question after midStream");
			for (let i = 0; i + 8 <= KEY.length; i++) expect(saved).not.toContain(KEY.slice(i, i + 8));
		});
	}
});

for (const { name, load } of TRANSPORTS) {
	describe(`the API key stays secret over the ${name} transport`, () => {
		let server: ProviderServer;
		beforeAll(async () => {
			server = await ProviderServer.start();
		});
		afterAll(() => server.close());

		for (const dialect of ["ollama", "openai", "anthropic"] as ProviderName[]) {
			it(`${dialect}: no error path carries the key, and nothing is logged`, async () => {
				const transport = await load();
				const logged: string[] = [];
				const spies = (["log", "info", "warn", "error", "debug"] as const).map((m) => vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" "))));
				const config: ProviderConfig = {
					provider: dialect,
					baseUrl: baseUrlFor(dialect, server.url),
					model: "m",
					apiKey: KEY,
					transport,
				};
				const outputs: string[] = [];
				const kinds = new Set<string>();
				try {
					for (const [label, scenario] of Object.entries(scenarios(dialect))) {
						server.reset();
						server.route("POST", CHAT_PATHS[dialect], scenario);
						server.route("GET", dialect === "ollama" ? "/api/tags" : "/v1/models", scenario);
						const limits = label.startsWith(TIMEOUT) ? { firstByteTimeoutMs: 80, stallTimeoutMs: 80 } : {};
						const adapter = createAdapter({ ...config, ...limits });
						const err = await adapter.generate(req).then(
							() => new Error(`${label}: expected a failure`),
							(e: unknown) => e,
						);
						kinds.add((err as { kind?: string }).kind ?? "none");
						outputs.push(...traces(err));
						outputs.push(...traces(await adapter.listModels().catch((e: unknown) => e)));
						outputs.push(JSON.stringify(await adapter.testConnection()));
					}
					const gone = createAdapter({ ...config, baseUrl: "http://127.0.0.1:1" });
					outputs.push(...traces(await gone.generate(req).catch((e: unknown) => e)));
					outputs.push(JSON.stringify(await gone.testConnection()));
				} finally {
					for (const s of spies) s.mockRestore();
				}
				// Every error path was really taken.
				expect([...kinds].sort()).toEqual(["auth", "bad_request", "context_overflow", "network", "not_found", "protocol", "rate_limit", "server"]);
				const all = [...outputs, ...logged].join("\n");
				expect(all).toContain("[redacted]");
				expect(all).not.toContain(KEY);
				for (let i = 0; i + 8 <= KEY.length; i++) expect(all).not.toContain(KEY.slice(i, i + 8));
			});
		}
	});
}
