// @vitest-environment happy-dom
// A server that reuses call ids, in the panel: the plugin's own engine (createChatRuntime) against a local
// Ollama-like server that names every call `call_0`. The person accepts each write in its card,
// then clicks Revert on the first card: A gets its text back, B keeps its edit, and B's card can
// still revert it. Two chats of the panel share one change journal: the same holds across them.
import { beforeAll, describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp, flush, pressKey, typeInto } from "../obsidian/harness";
import { until } from "../support/chatHarness";
import { ProviderServer } from "../support/providerServer";
import { toolCallStream, toolHeaders, type StreamedCall } from "../support/toolStreams";
import type { DiscoverHost } from "../../src/ui/host";
import { t } from "../../src/i18n";
import { testSettings } from "./fakes";
import { mountRuntimePanel, runtimePanelServer } from "./runtimePanel";

const A = "# A\n\nalpha\n";
const B = "# B\n\nbeta\n";
const DONE = ['{"model":"m","message":{"role":"assistant","content":"Done."},"done":false}', '{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":40,"eval_count":2}', ""].join("\n");

const shared = runtimePanelServer();
let server: ProviderServer;
beforeAll(() => {
	server = shared.server();
});

const edit = (path: string, from: string, to: string): StreamedCall => ({ id: "call_0", name: "edit_note", args: JSON.stringify({ path, mode: "replace", old_text: from, new_text: to }) });

/** One chat request after another: calls (each named call_0) or "Done.". */
function serve(steps: (StreamedCall[] | "done")[]): void {
	let i = 0;
	server.route("GET", "/api/tags", { headers: { "content-type": "application/json" }, body: JSON.stringify({ models: [{ name: "llama3.2", model: "llama3.2" }] }) });
	server.route("POST", "/api/show", { status: 404, body: "{}" });
	server.route("POST", "/api/chat", () => {
		const step = steps[Math.min(i++, steps.length - 1)] ?? "done";
		return step === "done" ? { headers: { "content-type": "application/x-ndjson" }, body: DONE } : { headers: toolHeaders("ollama"), body: toolCallStream("ollama", { calls: step }) };
	});
}

async function panel() {
	const app = await createTestApp({ files: { "A.md": A, "B.md": B } });
	const settings = testSettings({ provider: "ollama", baseUrl: server.url, model: "llama3.2", includeActiveNote: false });
	const host: DiscoverHost = { app: asObsidianApp(app), settings, saveSettings: () => Promise.resolve() };
	const m = await mountRuntimePanel(app, host, server, shared.cleanups);
	const idle = () => m.root.querySelector(".discover-chat-send")?.getAttribute("aria-label") === "Send message";
	/** Sends `text` and accepts every write the model asks for, until the turn ends. */
	const sendAccepting = async (text: string) => {
		const input = m.root.querySelector<HTMLTextAreaElement>(".discover-chat-input")!;
		typeInto(input, text);
		pressKey(input, "Enter");
		await until(() => !idle(), "the turn to start");
		for (;;) {
			await until(() => idle() || m.root.querySelector(".discover-permission .mod-cta") !== null, "a permission card or the end of the turn");
			const accept = m.root.querySelector<HTMLButtonElement>(".discover-permission .mod-cta");
			if (accept === null) break;
			accept.click();
			await until(() => !accept.isConnected, "the card to take the answer");
		}
		await flush();
	};
	const writeCards = () => Array.from(m.root.querySelectorAll<HTMLElement>(".discover-tool-card")).filter((c) => c.querySelector(".discover-tool-card-revert") !== null || c.hasClass("is-reverted"));
	const revert = async (card: HTMLElement) => {
		card.querySelector<HTMLButtonElement>(".discover-tool-card-revert")!.click();
		await until(() => card.querySelector(".discover-tool-card-revert-note") !== null, "the revert to be done");
	};
	const read = (path: string) => app.vault.adapter.read(path);
	return { m, host, sendAccepting, writeCards, revert, read };
}

describe("a server that names every call call_0, in the panel", () => {
	it("Revert on the first card restores A, not B; B's card can still revert B", async () => {
		serve([[edit("A.md", "alpha", "ALPHA")], [edit("B.md", "beta", "BETA")], "done"]);
		const p = await panel();
		await p.sendAccepting("Shout both");
		expect(await p.read("A.md")).toBe("# A\n\nALPHA\n");
		expect(await p.read("B.md")).toBe("# B\n\nBETA\n");
		const [first, second] = p.writeCards();
		expect(p.writeCards()).toHaveLength(2);
		await p.revert(first!);
		expect(first!.querySelector(".discover-tool-card-revert-note")?.textContent).toBe(t("toolCard.reverted"));
		expect(await p.read("A.md")).toBe(A);
		expect(await p.read("B.md")).toBe("# B\n\nBETA\n");
		expect(second!.querySelector(".discover-tool-card-revert")).not.toBeNull();
		await p.revert(second!);
		expect(second!.querySelector(".discover-tool-card-revert-note")?.textContent).toBe(t("toolCard.reverted"));
		expect(await p.read("B.md")).toBe(B);
	});

	it("across two chats of the panel: the first chat's card still reverts A after the second chat wrote B", async () => {
		serve([[edit("A.md", "alpha", "ALPHA")], "done", [edit("B.md", "beta", "BETA")], "done"]);
		const p = await panel();
		await p.sendAccepting("Shout A");
		const firstChat = p.host.settings.activeSessionId!;
		p.m.root.querySelector<HTMLButtonElement>('[aria-label="New chat"]')!.click();
		await until(() => p.host.settings.activeSessionId !== firstChat, "a new chat");
		await flush();
		await p.sendAccepting("Shout B");
		expect(await p.read("B.md")).toBe("# B\n\nBETA\n");
		await p.m.view.openSession(firstChat);
		await flush();
		const [card] = p.writeCards();
		expect(p.writeCards()).toHaveLength(1);
		await p.revert(card!);
		expect(card!.querySelector(".discover-tool-card-revert-note")?.textContent).toBe(t("toolCard.reverted"));
		expect(await p.read("A.md")).toBe(A);
		expect(await p.read("B.md")).toBe("# B\n\nBETA\n");
	});
});
