import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyHttpError, classifyStreamError, isContextOverflowText, parseRetryAfter } from "../../src/providers/classify";
import { redactSecret } from "../../src/providers/redact";
import { OVERFLOW_BODIES } from "../support/providerStreams";

const ctx = { provider: "ollama" as const, model: "llama3.2", origin: "http://localhost:11434" };

describe("context overflow wording", () => {
	for (const [server, { dialect, reply }] of Object.entries(OVERFLOW_BODIES)) {
		it(`recognizes ${server}'s overflow body`, () => {
			const err = classifyHttpError({ ...ctx, provider: dialect }, reply.status === 200 ? 400 : reply.status, reply.body, new Headers());
			expect(err.kind).toBe("context_overflow");
		});
	}

	it("does not mistake other errors for overflow", () => {
		expect(isContextOverflowText("Invalid value for 'temperature'")).toBe(false);
		expect(isContextOverflowText("model 'x' not found")).toBe(false);
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
