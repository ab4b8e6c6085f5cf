// Images on the wire: each dialect's own form, read back from the request body the adapter sent.
import { describe, expect, it } from "vitest";
import type { PromptMessage } from "../../src/core/types";
import { createAdapter } from "../../src/providers";
import type { ProviderName } from "../../src/providers/types";
import { headersFor, streamFor } from "../support/providerStreams";
import { memoryTransport } from "../support/memoryTransport";

const PNG = { mediaType: "image/png", data: "iVBORw0KGgo=" };
const JPEG = { mediaType: "image/jpeg", data: "/9j/4AAQSkZJRg==" };
const encoder = new TextEncoder();

async function sentBody(provider: ProviderName, messages: PromptMessage[]): Promise<Record<string, unknown>> {
	const transport = memoryTransport({ headers: headersFor(provider), chunks: [encoder.encode(streamFor(provider, ["ok"]))] });
	await createAdapter({ provider, baseUrl: "http://127.0.0.1:9", model: "m", transport }).generate({ purpose: "chat", messages, maxTokens: 64, contextWindow: 4096 });
	return JSON.parse(String(transport.calls[0]?.init.body)) as Record<string, unknown>;
}

const withImages: PromptMessage[] = [
	{ role: "system", content: "Be brief." },
	{ role: "user", content: "What is in these?", images: [PNG, JPEG] },
];

describe("images in each dialect's request body", () => {
	it("ollama: the message carries images as bare base64 strings", async () => {
		const body = await sentBody("ollama", withImages);
		expect(body.messages).toEqual([
			{ role: "system", content: "Be brief." },
			{ role: "user", content: "What is in these?", images: [PNG.data, JPEG.data] },
		]);
	});

	it("openai: content parts, the text then each image as a data URL", async () => {
		const body = await sentBody("openai", withImages);
		expect(body.messages).toEqual([
			{ role: "system", content: "Be brief." },
			{
				role: "user",
				content: [
					{ type: "text", text: "What is in these?" },
					{ type: "image_url", image_url: { url: `data:image/png;base64,${PNG.data}` } },
					{ type: "image_url", image_url: { url: `data:image/jpeg;base64,${JPEG.data}` } },
				],
			},
		]);
	});

	it("anthropic: image blocks with a base64 source, then the text", async () => {
		const body = await sentBody("anthropic", withImages);
		expect(body.system).toEqual([{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }]);
		expect(body.messages).toEqual([
			{
				role: "user",
				content: [
					{ type: "image", source: { type: "base64", media_type: "image/png", data: PNG.data } },
					{ type: "image", source: { type: "base64", media_type: "image/jpeg", data: JPEG.data } },
					{ type: "text", text: "What is in these?" },
				],
			},
		]);
	});

	it("anthropic: an image-only message is a turn of its own blocks; a following text turn merges after it", async () => {
		const body = await sentBody("anthropic", [
			{ role: "user", content: "", images: [PNG] },
			{ role: "user", content: "Describe it" },
		]);
		expect(body.messages).toEqual([
			{
				role: "user",
				content: [
					{ type: "image", source: { type: "base64", media_type: "image/png", data: PNG.data } },
					{ type: "text", text: "Describe it" },
				],
			},
		]);
	});

	it("messages without images keep their plain string content in every dialect", async () => {
		for (const provider of ["ollama", "openai"] as const) {
			const body = await sentBody(provider, [{ role: "user", content: "Hi" }]);
			expect(body.messages).toEqual([{ role: "user", content: "Hi" }]);
		}
	});

	it("attachments (references) never reach the wire: only inline images do", async () => {
		const ref = { path: "Discover/Chats/attachments/a.png", mediaType: "image/png", width: 10, height: 10, bytes: 99 };
		const body = await sentBody("ollama", [{ role: "user", content: "Hi", attachments: [ref] }]);
		expect(JSON.stringify(body)).not.toContain("attachments/a.png");
	});
});

describe("a model that cannot read images", () => {
	const refusals: [ProviderName, number, string][] = [
		["ollama", 400, JSON.stringify({ error: "registry.ollama.ai/library/llama3.2:latest does not support images" })],
		["ollama", 500, JSON.stringify({ error: "this model is missing data required for image input" })],
		["openai", 400, JSON.stringify({ error: { message: "Invalid content type. image_url is only supported by certain models.", type: "invalid_request_error", param: "messages.[1].content.[1].type", code: null } })],
		["openai", 400, JSON.stringify({ error: { message: "image input is not supported - hint: if this is unexpected, you may need to provide the mmproj", type: "invalid_request_error" } })],
		["openai", 404, JSON.stringify({ error: { message: "No endpoints found that support image input", code: 404 } })],
		["anthropic", 400, JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "Image input is not supported for this model." } })],
	];

	for (const [provider, status, body] of refusals) {
		it(`${provider} ${status}: a bad_request marked imagesUnsupported, saying so plainly`, async () => {
			const transport = memoryTransport({ status, headers: { "content-type": "application/json" }, chunks: [encoder.encode(body)] });
			const adapter = createAdapter({ provider, baseUrl: "http://127.0.0.1:9", model: "text-only", transport });
			const err: unknown = await adapter.generate({ purpose: "chat", messages: withImages, maxTokens: 64, contextWindow: 4096 }).then(
				() => undefined,
				(e: unknown) => e,
			);
			expect(err).toMatchObject({ kind: "bad_request", imagesUnsupported: true });
			expect((err as Error).message).toMatch(/^This model can't read images/);
		});
	}

	it("the same words without images sent are not about images", async () => {
		const body = JSON.stringify({ error: "registry.ollama.ai/library/llama3.2:latest does not support images" });
		const transport = memoryTransport({ status: 400, headers: { "content-type": "application/json" }, chunks: [encoder.encode(body)] });
		const err: unknown = await createAdapter({ provider: "ollama", baseUrl: "http://127.0.0.1:9", model: "m", transport })
			.generate({ purpose: "chat", messages: [{ role: "user", content: "Hi" }], maxTokens: 64, contextWindow: 4096 })
			.then(() => undefined, (e: unknown) => e);
		expect(err).toMatchObject({ kind: "bad_request" });
		expect((err as { imagesUnsupported?: boolean }).imagesUnsupported).toBeUndefined();
	});
});
