// Images in a chat: sent in the request, stored by reference, priced in the budget, dropped from
// old messages before any text is summarized, and a missing file never fails the turn.
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import type { ChatEvent } from "../../src/chat/turnPrompt";
import { toBase64 } from "../../src/core/base64";
import type { ChatSettings, GenerateRequest, GenerateResult, ImageRef, LLMAdapter, PromptMessage } from "../../src/core/types";
import { imageTokens } from "../../src/core/imageSize";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { LLMError, isImagesUnsupported } from "../../src/providers/errors";
import { SessionManager } from "../../src/sessions/SessionManager";

/** Records every request whole (images included), answers "ok", summarizes to a fixed line. */
class CapturingAdapter implements LLMAdapter {
	readonly requests: GenerateRequest[] = [];
	generate(req: GenerateRequest): Promise<GenerateResult> {
		this.requests.push({ ...req, messages: req.messages.map((m) => ({ ...m })) });
		return Promise.resolve({ text: req.purpose === "summary" ? "Summary." : "ok" });
	}
	chats(): GenerateRequest[] {
		return this.requests.filter((r) => r.purpose === "chat");
	}
}

const PIXELS = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3, 4, 5]);
const ref = (name: string, width = 1024, height = 768): ImageRef => ({ path: `Chats/attachments/${name}`, mediaType: "image/png", width, height, bytes: PIXELS.length });

function chatWith(settings: Partial<ChatSettings>, files: Record<string, Uint8Array> = {}) {
	const adapter = new CapturingAdapter();
	const store = new MemoryFileStore();
	const sessions = new SessionManager(store, { onWarning: () => undefined });
	const events: ChatEvent[] = [];
	const readImage = (path: string): Promise<Uint8Array> => {
		const bytes = files[path];
		return bytes === undefined ? Promise.reject(new Error(`missing ${path}`)) : Promise.resolve(bytes);
	};
	const chat = new ChatService({ adapter, sessions, settings, readImage, onEvent: (e) => events.push(e) });
	return { adapter, store, chat, events };
}

const lastUser = (messages: PromptMessage[]): PromptMessage | undefined => [...messages].reverse().find((m) => m.role === "user");

describe("images in a chat", () => {
	it("sends the attached image as base64 with the message, read from its file through readImage", async () => {
		const image = ref("a.png");
		const { adapter, chat } = chatWith({ maxPromptTokens: 8192 }, { [image.path]: PIXELS });
		await chat.sendMessage("What is this?", { images: [image] });
		const sent = lastUser(adapter.chats()[0]?.messages ?? []);
		expect(sent?.content).toBe("What is this?");
		expect(sent?.images).toEqual([{ mediaType: "image/png", data: toBase64(PIXELS) }]);
		expect(sent?.attachments).toBeUndefined();
	});

	it("keeps only the reference in the session file, never the image's bytes", async () => {
		const image = ref("b.png");
		const { store, chat } = chatWith({ maxPromptTokens: 8192 }, { [image.path]: PIXELS });
		await chat.sendMessage("Look", { images: [image] });
		const files = [...store.files.entries()].filter(([path]) => path.endsWith(".jsonl"));
		const text = files.map(([, data]) => data).join("\n");
		expect(text).toContain(image.path);
		expect(text).not.toContain(toBase64(PIXELS));
		expect(chat.messages.find((m) => m.role === "user")?.attachments).toEqual([image]);
	});

	it("counts the image in the prompt's estimate by the provider's rule", async () => {
		const image = ref("c.png", 1024, 1024);
		const run = async (images: ImageRef[] | undefined): Promise<number> => {
			const { chat, events } = chatWith({ maxPromptTokens: 8192, imageTokens: "tiles" }, { [image.path]: PIXELS });
			await chat.sendMessage("Same words", { images });
			const prompt = events.find((e): e is Extract<ChatEvent, { type: "prompt" }> => e.type === "prompt");
			return prompt?.estimatedTokens ?? 0;
		};
		const without = await run(undefined);
		const withImage = await run([image]);
		// OpenAI's rule: 1024² → 768² → 2×2 tiles → 85 + 4 × 170.
		expect(withImage - without).toBe(765);
		expect(imageTokens(image, "tiles")).toBe(765);
	});

	it("the budget meter's preview counts the draft's images", () => {
		const image = ref("e.png", 1024, 1024);
		const { chat } = chatWith({ maxPromptTokens: 8192, imageTokens: "tiles" });
		const without = chat.previewPrompt("Same words").estimatedTokens;
		expect(chat.previewPrompt("Same words", { images: [image] }).estimatedTokens - without).toBe(765);
	});

	it("refuses, before saving anything, a message whose images alone exceed the budget", async () => {
		const image = ref("huge.png");
		const { chat, adapter } = chatWith({ maxPromptTokens: 1024, reservedResponseTokens: 128, imageTokens: { perImage: 5000 } }, { [image.path]: PIXELS });
		await expect(chat.sendMessage("Hi", { images: [image] })).rejects.toMatchObject({ code: "message_too_long" });
		expect(adapter.requests).toHaveLength(0);
		expect(chat.messages).toHaveLength(0);
	});

	it("drops an old message's image, with a note, before summarizing any text", async () => {
		const old = ref("old.png");
		const files = { [old.path]: PIXELS };
		// 1,000 tokens an image: the old one and the new one cannot both fit 1,600.
		const { adapter, chat } = chatWith({ maxPromptTokens: 2048, reservedResponseTokens: 128, recentMessagesToKeep: 8, minRecentMessagesToKeep: 2, imageTokens: { perImage: 1000 } }, files);
		await chat.sendMessage("Here is a diagram", { images: [old] });
		const fresh = ref("new.png");
		files[fresh.path] = PIXELS;
		await chat.sendMessage("And here is another", { images: [fresh] });
		expect(adapter.requests.filter((r) => r.purpose === "summary")).toHaveLength(0);
		const prompt = adapter.chats()[1]?.messages ?? [];
		const first = prompt.find((m) => m.role === "user" && m.content.startsWith("Here is a diagram"));
		expect(first?.images).toBeUndefined();
		expect(first?.content).toContain("not shown again");
		expect(lastUser(prompt)?.images).toHaveLength(1);
	});

	it("sends a message whose image file is gone, with a note and a warning, instead of failing", async () => {
		const gone = ref("gone.png");
		const { adapter, chat, events } = chatWith({ maxPromptTokens: 8192 });
		const answer = await chat.sendMessage("What about this?", { images: [gone] });
		expect(answer.content).toBe("ok");
		const sent = lastUser(adapter.chats()[0]?.messages ?? []);
		expect(sent?.images).toBeUndefined();
		expect(sent?.content).toContain("gone.png");
		expect(events.some((e) => e.type === "warning" && e.message.includes("gone.png"))).toBe(true);
	});

	it("a model that cannot read images fails the turn plainly; the message keeps its image for the next try", async () => {
		const image = ref("d.png");
		const store = new MemoryFileStore();
		const sessions = new SessionManager(store, { onWarning: () => undefined });
		let refuse = true;
		const seen: GenerateRequest[] = [];
		const adapter: LLMAdapter = {
			generate: (req) => {
				seen.push(req);
				if (refuse) return Promise.reject(new LLMError("bad_request", "This model can't read images.", { imagesUnsupported: true }));
				return Promise.resolve({ text: "ok" });
			},
		};
		const chat = new ChatService({ adapter, sessions, settings: { maxPromptTokens: 8192 }, readImage: () => Promise.resolve(PIXELS) });
		const err: unknown = await chat.sendMessage("What is this?", { images: [image] }).then(() => undefined, (e: unknown) => e);
		expect(isImagesUnsupported(err)).toBe(true);
		const failed = chat.messages.find((m) => m.role === "user");
		expect(failed?.error).toBeDefined();
		expect(failed?.attachments).toEqual([image]);
		// The next try (another model) sends the same message once, with its image.
		refuse = false;
		await chat.sendMessage("What is this?", { images: [image] });
		expect(chat.messages.filter((m) => m.role === "user")).toHaveLength(1);
		expect(lastUser(seen[1]?.messages ?? [])?.images).toHaveLength(1);
	});

	it("a regenerated answer and an edited message are asked again with the message's images", async () => {
		const image = ref("f.png");
		const { adapter, chat } = chatWith({ maxPromptTokens: 8192 }, { [image.path]: PIXELS });
		await chat.sendMessage("What is this?", { images: [image] });
		await chat.regenerate();
		expect(lastUser(adapter.chats()[1]?.messages ?? [])?.images).toHaveLength(1);
		const user = chat.messages.find((m) => m.role === "user");
		await chat.editMessage(user?.id ?? "", "What colour is this?");
		const edited = lastUser(adapter.chats()[2]?.messages ?? []);
		expect(edited?.content).toBe("What colour is this?");
		expect(edited?.images).toHaveLength(1);
		expect(chat.messages.find((m) => m.role === "user")?.attachments).toEqual([image]);
	});

	it("encodes base64 like the standard alphabet, padding included", () => {
		const bytes = (s: string) => new TextEncoder().encode(s);
		expect(toBase64(bytes(""))).toBe("");
		expect(toBase64(bytes("f"))).toBe("Zg==");
		expect(toBase64(bytes("fo"))).toBe("Zm8=");
		expect(toBase64(bytes("foo"))).toBe("Zm9v");
		expect(toBase64(bytes("foobar"))).toBe("Zm9vYmFy");
		const big = new Uint8Array(100_000).map((_, i) => (i * 7919) % 256);
		expect(toBase64(big)).toBe(Buffer.from(big).toString("base64"));
	});
});
