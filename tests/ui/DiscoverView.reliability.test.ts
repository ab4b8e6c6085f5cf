// @vitest-environment happy-dom
// The panel on the real engine when the server's window is smaller than the settings say, and when
// the disk is full: the fix is one click away, and the person's text is never lost.
import { afterEach, describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp, flush, openNote } from "../obsidian/harness";
import { StubAdapter } from "../support/stubAdapter";
import { ChatService } from "../../src/chat/ChatService";
import type { LLMAdapter } from "../../src/core/types";
import { LLMError } from "../../src/providers/errors";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import type { ChatRuntimeFactory, DiscoverHost } from "../../src/ui/host";
import { openEnginePanel } from "./enginePanel";
import { testSettings } from "./fakes";
import { until } from "../support/chatHarness";

const cleanups: (() => void)[] = [];
afterEach(async () => {
	for (const c of cleanups.splice(0)) c();
	await flush();
	document.body.empty();
});

async function mount(adapter: LLMAdapter, prepare: (sessions: SessionManager) => void = () => undefined) {
	const app = await createTestApp({ files: { "Notes/Alpha.md": "# Alpha\n\nAlpha is the first note.\n".repeat(400) } });
	await openNote(app, "Notes/Alpha.md");
	let saves = 0;
	const host: DiscoverHost = {
		app: asObsidianApp(app),
		settings: testSettings({ maxPromptTokens: 8192, reservedResponseTokens: 512 }),
		saveSettings: () => {
			saves++;
			return Promise.resolve();
		},
	};
	const factory: ChatRuntimeFactory = (h, onEvent) => {
		const sessions = new SessionManager(new MemoryFileStore());
		prepare(sessions);
		const chat = new ChatService({ adapter, sessions, settings: h.settings, model: "stub", onEvent });
		return Promise.resolve({
			chat,
			sessions,
			adapter: () => undefined,
			syncSettings: () => {
				chat.updateSettings(h.settings);
				return Promise.resolve();
			},
		});
	};
	const { leaf, root, input, send, idle } = await openEnginePanel(app, host, factory);
	cleanups.push(() => leaf.detach());
	return { host, root, input, send, idle, saves: () => saves };
}

describe("the panel when the server's window is smaller than the context size", () => {
	it("offers the server's window after a retry that worked, and one click saves it as the chat's model's context size", async () => {
		const stub = new StubAdapter({ reply: "Fine." });
		let refused = false;
		const adapter: LLMAdapter = {
			generate: (req) => {
				if (req.purpose === "chat" && !refused) {
					refused = true;
					return Promise.reject(new LLMError("context_overflow", "request (9000 tokens) exceeds the available context size (4096 tokens), try increasing it", { overflow: { window: 4096, promptTokens: 9000 } }));
				}
				return stub.generate(req);
			},
		};
		const m = await mount(adapter);
		await m.send("What is Alpha?");
		await m.idle();
		await until(() => m.root.querySelector(".discover-chat-offer") !== null, "the offer");
		const offer = m.root.querySelector<HTMLElement>(".discover-chat-offer")!;
		expect(offer.textContent).toContain("The server's window is 4,096 tokens, not 8,192. Use 4,096?");
		const savesBefore = m.saves();
		offer.querySelector<HTMLButtonElement>("button")!.click();
		// Kept per model: the chat's model gets the server's window, the general size (other models') stays.
		await until(() => m.host.settings.modelBudgets["llama3.2"]?.maxPromptTokens === 4096 && m.saves() > savesBefore, "the setting to be saved");
		expect(m.host.settings.maxPromptTokens).toBe(8192);
		await until(() => offer.querySelector("button") === null, "the offer to be done");
		expect(offer.textContent).toContain("Context size set to 4,096 tokens.");
	});

	it("keeps the person's text in the input when a full disk stops the first message of a new chat", async () => {
		const adapter = new StubAdapter();
		const m = await mount(adapter, (sessions) => {
			sessions.create = () => Promise.reject(Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" }));
		});
		await m.send("A question I typed carefully");
		await m.idle();
		await until(() => m.root.querySelector(".discover-chat-error") !== null, "the error");
		expect(m.root.querySelector(".discover-chat-error")?.textContent).toContain("Couldn't save your message");
		expect(m.input.value).toBe("A question I typed carefully");
		expect(adapter.requests).toHaveLength(0);
	});
});

describe("the panel when the store hangs", () => {
	it("Stop while the question is being saved ends the turn at once and puts the question back", async () => {
		const adapter = new StubAdapter();
		const m = await mount(adapter, (sessions) => {
			sessions.appendMessage = () => new Promise<void>(() => undefined);
		});
		await m.send("Saved? Not yet");
		await until(() => m.root.querySelector(".discover-chat-send")?.getAttribute("aria-label") !== "Send message", "the turn to start");
		m.root.querySelector<HTMLButtonElement>(".discover-chat-send")!.click();
		await m.idle();
		expect(m.input.value).toBe("Saved? Not yet");
		expect(adapter.requests).toHaveLength(0);
	});
});
