import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyHttpError, classifyStreamError, isContextOverflowText, parseRetryAfter } from "../../src/providers/classify";
import { redactSecret } from "../../src/providers/redact";
import { OVERFLOW_BODIES } from "../support/providerErrors";

const ctx = { provider: "ollama" as const, model: "llama3.2", origin: "http://localhost:11434" };

describe("context overflow wording", () => {
	for (const [server, { dialect, reply }] of Object.entries(OVERFLOW_BODIES)) {
		it(`recognizes ${server}'s overflow body`, () => {
			const err = classifyHttpError({ ...ctx, provider: dialect }, reply.status === 200 ? 400 : reply.status, reply.body, new Headers());
			expect(err.kind).toBe("context_overflow");
		});
	}

	it.each([
		"The number of tokens to keep from the initial prompt is greater than the context length. Try to load the model with a larger context length",
		"Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)",
		"the request exceeds the available context size, try increasing it",
		"Prompt length of 5016 is longer than the maximum model length of 4096.",
		"The prompt (total length 25938) is too long to fit into the model (context length 4096).",
		"Input length 6491 exceeds context length 1500",
		"Your input exceeds the context window of this model. Please adjust your input and try again.",
		"input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again",
	])("recognizes the variant %j", (text) => {
		expect(isContextOverflowText(text)).toBe(true);
	});

	it.each([
		"Invalid value for 'temperature'",
		"model 'x' not found",
		"Rate limit reached for requests",
		"max_tokens must be at least 1",
		"The context window setting is not supported by this model",
		"llama runner process has terminated",
	])("does not mistake %j for overflow", (text) => {
		expect(isContextOverflowText(text)).toBe(false);
	});
});

describe("HTTP status classification", () => {
	const h = new Headers();
	it.each([
		[401, '{"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}}', "auth"],
		[403, '{"error":"forbidden"}', "auth"],
		[404, '{"error":"model \'llama3.2\' not found"}', "not_found"],
		[400, '{"error":{"message":"The model `gpt-9` does not exist","code":"model_not_found"}}', "not_found"],
		[429, '{"error":{"message":"Rate limit reached"}}', "rate_limit"],
		[500, '{"error":"llama runner process has terminated"}', "server"],
		[502, "Bad gateway", "server"],
		[529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', "server"],
		[400, '{"error":{"message":"Invalid value for temperature"}}', "bad_request"],
		[422, "unprocessable", "bad_request"],
	])("HTTP %i → %s", (status, body, kind) => {
		expect(classifyHttpError(ctx, status, body, h).kind).toBe(kind);
	});

	it("keeps Retry-After on a server error (503, Anthropic's 529), for the caller to decide", () => {
		const err = classifyHttpError({ ...ctx, provider: "anthropic" }, 529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', new Headers({ "retry-after": "12" }));
		expect(err).toMatchObject({ kind: "server", retryAfterMs: 12000, message: "Overloaded" });
	});

	it("a 3xx that is not a redirect says its status", () => {
		expect(classifyHttpError(ctx, 304, "", new Headers()).message).toBe("Ollama answered HTTP 304.");
	});

	it("messages that start with the provider's name start with a capital", () => {
		const openai = { ...ctx, provider: "openai" as const };
		expect(classifyHttpError(openai, 500, "", new Headers()).message).toBe("The OpenAI-compatible server answered HTTP 500.");
		expect(classifyHttpError(openai, 401, "", new Headers()).message).toMatch(/^The OpenAI-compatible server rejected/);
	});

	it("keeps the provider's own message", () => {
		expect(classifyHttpError(ctx, 500, '{"error":"llama runner process has terminated"}', h).message).toBe("llama runner process has terminated");
	});

	it("names the model and the ollama pull fix for a missing Ollama model", () => {
		const err = classifyHttpError(ctx, 404, '{"error":"model \'llama3.2\' not found"}', h);
		expect(err.message).toContain('"llama3.2"');
		expect(err.message).toContain("ollama pull llama3.2");
	});

	it("a plain-text 404 points at the base URL as well as the model", () => {
		const err = classifyHttpError(ctx, 404, "404 page not found", h);
		expect(err.kind).toBe("not_found");
		expect(err.message).toContain('"llama3.2"');
		expect(err.message).toContain("Check the base URL");
	});

	it("reads Ollama's empty 403 as a refused origin, with the OLLAMA_ORIGINS fix", () => {
		const err = classifyHttpError(ctx, 403, "", h);
		expect(err.kind).toBe("auth");
		expect(err.message).toContain('OLLAMA_ORIGINS="app://obsidian.md*,capacitor://localhost" ollama serve');
	});

	it("does not blame the origin when the transport sends none (the Node transport)", () => {
		const err = classifyHttpError({ ...ctx, sendsNoOrigin: true }, 403, "", h);
		expect(err.kind).toBe("auth");
		expect(err.message).not.toContain("OLLAMA_ORIGINS");
	});
});

describe("Retry-After", () => {
	it("reads seconds, an HTTP date and retry-after-ms", () => {
		expect(parseRetryAfter(new Headers({ "retry-after": "7" }))).toBe(7000);
		expect(parseRetryAfter(new Headers({ "retry-after-ms": "1500", "retry-after": "7" }))).toBe(1500);
		const now = Date.parse("2026-01-01T00:00:00Z");
		expect(parseRetryAfter(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }), now)).toBe(30000);
		expect(parseRetryAfter(new Headers())).toBeUndefined();
	});
});

describe("stream errors", () => {
	it("Anthropic overloaded_error mid-stream is a server error with its message", () => {
		const err = classifyStreamError({ ...ctx, provider: "anthropic" }, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
		expect(err).toMatchObject({ kind: "server", message: "Overloaded" });
	});
	it("an overflow reported mid-stream is context_overflow", () => {
		expect(classifyStreamError(ctx, { error: "the prompt is longer than the context length" }).kind).toBe("context_overflow");
	});
});

describe("redactSecret", () => {
	it("removes the key and any 8+ character run of it, whatever surrounds it", () => {
		fc.assert(
			fc.property(fc.string({ minLength: 8, maxLength: 60 }).filter((k) => k.trim().length === k.length && !/\s/.test(k)), fc.string(), fc.string(), fc.nat(), (key, before, after, at) => {
				const start = at % (key.length - 7);
				const piece = key.slice(start, start + 8 + ((at >> 3) % (key.length - start - 7)));
				for (const leaked of [key, piece]) {
					const out = redactSecret(`${before} ${leaked} ${after}`, key);
					expect(out.includes(key.slice(start, start + 8))).toBe(false);
				}
			}),
		);
	});

	it("leaves text without the key alone", () => {
		expect(redactSecret("Incorrect API key provided.", "sk-live-0123456789abcdef")).toBe("Incorrect API key provided.");
	});
});
