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
		expect(body.system).toBe("Be brief.");
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
