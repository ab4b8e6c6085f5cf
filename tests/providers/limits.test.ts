// Size and time limits on everything a server sends: endless streams and bodies end
// with a clear error after a bounded number of bytes, keep-alives do not hold a dead answer open,
// and an error page does not become a megabyte-long message. Both transports.
import { describe, expect, it } from "vitest";
import type { GenerateRequest } from "../../src/core/types";
import { createAdapter, type ProviderAdapter, type ProviderConfig, type ProviderName } from "../../src/providers";
import { answerCharLimit, MAX_BODY_BYTES, MAX_METADATA_BYTES } from "../../src/providers/limits";
import type { Scenario } from "../support/providerServer";
import { baseUrlFor, CHAT_PATHS, endlessChunk, headersFor, JSON_HEADERS, streamFor } from "../support/providerStreams";
import { countingTransport, TRANSPORTS, useProviderServer } from "../support/transports";

const DIALECTS: ProviderName[] = ["ollama", "openai", "anthropic"];
const MODELS_PATHS: Record<ProviderName, string> = { ollama: "/api/tags", openai: "/v1/models", anthropic: "/v1/models" };
/** What a transport may read past a limit before the reader stops: a chunk or two in flight. */
const SLACK = 256 * 1024;

function chat(maxTokens: number): GenerateRequest {
	return { purpose: "chat", messages: [{ role: "user", content: "Tell me everything." }], maxTokens, contextWindow: 8192 };
}

async function failure(p: Promise<unknown>): Promise<{ kind?: string; message: string; partialText?: string }> {
	try {
		await p;
	} catch (err) {
		return err as { kind?: string; message: string; partialText?: string };
	}
	throw new Error("expected a failure");
}

/** An opening, then `repeat` written as fast as the client reads, until it closes the connection. */
function endless(opening: string, repeat: string, extra: Scenario = {}): Scenario {
	return { body: opening, chunkMin: 64 * 1024, chunkMax: 64 * 1024, endless: { repeat, intervalMs: 0 }, ...extra };
}

/** A gateway's 2.5 MB error page: the text that matters is at the top, then kilobytes of markup. */
function bigErrorPage(): string {
	const head = "<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body { font-family: sans-serif; }</style><script>var x = '<b>not text</b>';</script></head>";
	const filler = '<div class="pad">&nbsp;</div>\n'.repeat(Math.ceil((2.5 * 1024 * 1024) / 30));
	return `${head}<body><h1>502 Bad Gateway</h1><p>The upstream server did not answer &amp; the proxy gave up.</p>${filler}</body></html>`;
}

for (const { name, load } of TRANSPORTS) {
	describe(`size and time limits over the ${name} transport`, () => {
		const env = useProviderServer(load);

		function adapter(provider: ProviderName, extra: Partial<ProviderConfig> = {}): { adapter: ProviderAdapter; bytesRead: () => number } {
			const counted = countingTransport(env.transport);
			const a = createAdapter({ provider, baseUrl: baseUrlFor(provider, env.server.url), model: "m", transport: counted.transport, ...extra });
			return { adapter: a, bytesRead: counted.bytesRead };
		}

		for (const provider of DIALECTS) {
			describe(provider, () => {
				it("an endless answer stream stops at the answer cap with a protocol error that keeps the partial text", async () => {
					const opening = streamFor(provider, ["Once upon a time"], { noTerminator: true });
					env.server.route("POST", CHAT_PATHS[provider], endless(opening, endlessChunk(provider).repeat(200), { headers: headersFor(provider) }));
					const { adapter: a, bytesRead } = adapter(provider);
					const cap = answerCharLimit(16);
					const err = await failure(a.generate(chat(16)));
					expect(err.kind).toBe("protocol");
					expect(err.message).toContain("cut off");
					expect(err.partialText?.startsWith("Once upon a time more more")).toBe(true);
					expect(err.partialText?.length).toBeLessThanOrEqual(cap);
					expect(err.partialText?.length).toBeGreaterThan(cap - 10);
					// Framing costs bytes, but the read stops soon after the cap.
					expect(bytesRead()).toBeLessThan(cap * 40 + SLACK);
					await env.server.waitForClientClose();
				});

				it("an HTTP 500 with an endless body is read up to 64 KB, and the connection closed", async () => {
					env.server.route("POST", CHAT_PATHS[provider], endless("Internal error: ", "the server keeps talking ".repeat(2000), { status: 500, headers: { "content-type": "text/plain" } }));
					const { adapter: a, bytesRead } = adapter(provider);
					const err = await failure(a.generate(chat(64)));
					expect(err.kind).toBe("server");
					expect(err.message.length).toBeLessThan(500);
					expect(bytesRead()).toBeLessThan(MAX_BODY_BYTES + SLACK);
					await env.server.waitForClientClose();
				});

				it("an endless model list is read up to its limit, then refused", async () => {
					const opening = provider === "ollama" ? '{"models":[' : '{"data":[';
					const item = provider === "ollama" ? '{"name":"m:latest"},' : '{"id":"m"},';
					env.server.route("GET", MODELS_PATHS[provider], endless(opening, item.repeat(4000), { headers: JSON_HEADERS }));
					const { adapter: a, bytesRead } = adapter(provider);
					const err = await failure(a.listModels());
					expect(err.kind).toBe("protocol");
					expect(err.message).toContain("4 MB");
					expect(bytesRead()).toBeLessThan(MAX_METADATA_BYTES + SLACK);
					await env.server.waitForClientClose();
				});

				it("a 2.5 MB HTML error page becomes a short message of its text", async () => {
					const page = { status: 502, headers: { "content-type": "text/html" }, body: bigErrorPage(), chunkMin: 64 * 1024, chunkMax: 64 * 1024 };
					env.server.route("POST", CHAT_PATHS[provider], page);
					env.server.route("GET", MODELS_PATHS[provider], page);
					const { adapter: a } = adapter(provider);
					for (const err of [await failure(a.generate(chat(64))), await failure(a.listModels())]) {
						expect(err.message.length).toBeLessThan(500);
						expect(err.message).toContain("502 Bad Gateway The upstream server did not answer & the proxy gave up.");
						expect(err.message).not.toMatch(/[<>]|not text|&nbsp;/);
					}
					const test = await a.testConnection();
					expect(test.message.length).toBeLessThan(600);
				});

				it("a stream of keep-alives only times out: the stall limit counts progress, not bytes", async () => {
					const keepAlive = provider === "ollama" ? "\n" : provider === "anthropic" ? 'event: ping\ndata: {"type":"ping"}\n\n' : ": keepalive\n\n";
					env.server.route("POST", CHAT_PATHS[provider], { headers: headersFor(provider), body: keepAlive, endless: { repeat: keepAlive, intervalMs: 10 } });
					const { adapter: a } = adapter(provider, { stallTimeoutMs: 300 });
					const started = Date.now();
					const err = await failure(a.generate(chat(64)));
					expect(err.kind).toBe("network");
					expect(err.message).toContain("sent no answer for 300 ms");
					expect(Date.now() - started).toBeLessThan(4000);
					await env.server.waitForClientClose();
				});

				it("keep-alives after part of an answer time out as a stall mid-answer", async () => {
					const keepAlive = provider === "ollama" ? "\n" : provider === "anthropic" ? 'event: ping\ndata: {"type":"ping"}\n\n' : ": keepalive\n\n";
					const opening = streamFor(provider, ["Once upon"], { noTerminator: true });
					env.server.route("POST", CHAT_PATHS[provider], { headers: headersFor(provider), body: opening, chunkMin: 4096, chunkMax: 4096, endless: { repeat: keepAlive, intervalMs: 10 } });
					const { adapter: a } = adapter(provider, { stallTimeoutMs: 300 });
					const err = await failure(a.generate(chat(64)));
					expect(err.kind).toBe("network");
					expect(err.message).toContain("stopped sending mid-answer for 300 ms");
				});
			});
		}

		it("openai: an endless JSON answer (a server ignoring stream: true) stops at the answer cap plus 64 KB", async () => {
			env.server.route("POST", CHAT_PATHS.openai, endless('{"choices":[{"message":{"role":"assistant","content":"', "x".repeat(64 * 1024), { headers: JSON_HEADERS }));
			const { adapter: a, bytesRead } = adapter("openai");
			const err = await failure(a.generate(chat(16)));
			expect(err.kind).toBe("protocol");
			expect(bytesRead()).toBeLessThan(answerCharLimit(16) + MAX_BODY_BYTES + SLACK);
			await env.server.waitForClientClose();
		});

		it("ollama: endless model details (/api/show) are refused at their limit", async () => {
			env.server.route("POST", "/api/show", endless('{"license":"', "x".repeat(64 * 1024), { headers: JSON_HEADERS }));
			const { adapter: a, bytesRead } = adapter("ollama");
			expect((await failure(a.modelContextLength("m"))).kind).toBe("protocol");
			expect(bytesRead()).toBeLessThan(MAX_METADATA_BYTES + SLACK);
		});

	});
}
