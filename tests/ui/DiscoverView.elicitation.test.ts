// @vitest-environment happy-dom
// An MCP server asks the person for values during a tool call (elicitation), in the panel: the
// plugin's own engine (createChatRuntime), the plugin's MCP hub (createPluginMcpHub) running the
// stub server (tests/support/mcpStub.ts, mode "elicit") as a real process, and an Ollama-like model
// server that calls `stub__elicit` then answers. The person allows the call, the form shows in the
// call's card with its fields; Send returns what was typed to the server (which hands it back as its
// result), Decline and Cancel return as they say, Stop cancels the open form, a message with HTML
// or a Markdown image stays text, and a form Discover cannot show is declined with a note.
import { beforeAll, describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp, flush, pressKey, typeInto } from "../obsidian/harness";
import { ProviderServer } from "../support/providerServer";
import { toolCallStream, toolHeaders } from "../support/toolStreams";
import { MCP_STUB_SOURCE } from "../support/mcpStub";
import { nodeTimers } from "../support/nodeTimers";
import type { DiscoverHost } from "../../src/ui/host";
import type { McpHubPort } from "../../src/ui/mcpPort";
import { createPluginMcpHub } from "../../src/wiring/mcpHub";
import { OAuthRedirects } from "../../src/wiring/oauthRedirect";
import { t } from "../../src/i18n";
import { testSettings } from "./fakes";
import { mountRuntimePanel, runtimePanelServer } from "./runtimePanel";

const shared = runtimePanelServer();
let server: ProviderServer;
beforeAll(() => {
	server = shared.server();
});

const DONE = ['{"model":"m","message":{"role":"assistant","content":"Done."},"done":false}', '{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":40,"eval_count":2}', ""].join("\n");

async function eventually(check: () => boolean, what: string, ms = 15_000): Promise<void> {
	const end = Date.now() + ms;
	while (!check()) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => nodeTimers.set(() => r(undefined), 10));
	}
}

const SCHEMA = {
	type: "object",
	properties: {
		name: { type: "string", title: "Your name", description: "As it should appear on the ticket.", minLength: 2 },
		age: { type: "integer", title: "Age", minimum: 0, maximum: 150, default: 30 },
		email: { type: "string", title: "Email", format: "email" },
		plan: { type: "string", title: "Plan", oneOf: [{ const: "free", title: "Free plan" }, { const: "pro", title: "Pro plan" }], default: "free" },
		news: { type: "boolean", title: "Send me news", default: true },
	},
	required: ["name", "age"],
};

/** The model calls stub__elicit once with `args`, then says "Done.". */
function serveElicit(args: Record<string, string>): void {
	let i = 0;
	server.route("GET", "/api/tags", { headers: { "content-type": "application/json" }, body: JSON.stringify({ models: [{ name: "m", model: "m" }] }) });
	server.route("POST", "/api/show", { status: 404, body: "{}" });
	server.route("POST", "/api/chat", () => (i++ === 0 ? { headers: toolHeaders("ollama"), body: toolCallStream("ollama", { calls: [{ id: "c1", name: "stub__elicit", args: JSON.stringify(args) }] }) } : { headers: { "content-type": "application/x-ndjson" }, body: DONE }));
}

async function panel() {
	const app = await createTestApp();
	const settings = testSettings({
		provider: "ollama",
		baseUrl: server.url,
		model: "m",
		includeActiveNote: false,
		mcpServers: [{ name: "stub", enabled: true, command: process.execPath, args: ["-e", MCP_STUB_SOURCE, "elicit"] }],
	});
	let hub: Promise<McpHubPort & { close(): Promise<void> }> | undefined;
	const host: DiscoverHost = {
		app: asObsidianApp(app),
		settings,
		saveSettings: () => Promise.resolve(),
		mcp: () => (hub ??= createPluginMcpHub({ app: asObsidianApp(app), settings, oauthRedirects: new OAuthRedirects(() => undefined) })),
	};
	shared.cleanups.push(() => void hub?.then((h) => h.close()));
	const m = await mountRuntimePanel(app, host, server, shared.cleanups);
	const root = m.root;
	const idle = () => root.querySelector(".discover-chat-send")?.getAttribute("aria-label") === t("composer.send");
	/** Sends `text` and allows the MCP call once; resolves when the server's form is on screen. */
	const askAndAllow = async (text: string) => {
		const before = Array.from(root.querySelectorAll<HTMLElement>(".discover-tool-card .discover-elicit")).pop();
		const input = root.querySelector<HTMLTextAreaElement>(".discover-chat-input")!;
		typeInto(input, text);
		pressKey(input, "Enter");
		await eventually(() => root.querySelector(".discover-permission .mod-cta") !== null, "the permission card");
		root.querySelector<HTMLButtonElement>(".discover-permission .mod-cta")!.click();
		const open = () => Array.from(root.querySelectorAll<HTMLElement>(".discover-tool-card .discover-elicit")).pop();
		await eventually(() => open() !== undefined && open() !== before, "the server's form");
		await flush();
		return open()!;
	};
	const endOfTurn = () => eventually(() => idle(), "the end of the turn");
	/** What the server got back, as it returned it in its result (the tool message the model read next). */
	const serverGot = (): { caps: unknown; result: { action: string; content?: Record<string, unknown> } | null } => {
		const last = server.requests.filter((r) => r.path === "/api/chat").pop()?.json as { messages?: { role: string; content: string }[] } | undefined;
		const tool = last?.messages?.filter((x) => x.role === "tool").pop()?.content ?? "";
		const json = /\{"caps".*\}/.exec(tool)?.[0];
		if (json === undefined) throw new Error(`no result in ${tool.slice(0, 300)}`);
		return JSON.parse(json) as ReturnType<typeof serverGot>;
	};
	const field = (card: HTMLElement, label: string) => {
		const l = Array.from(card.querySelectorAll<HTMLLabelElement>("label")).find((x) => x.textContent?.startsWith(label));
		if (!l) throw new Error(`no field ${label}`);
		return card.querySelector<HTMLInputElement | HTMLSelectElement>(`#${l.htmlFor}`)!;
	};
	const click = (card: HTMLElement, text: string) => {
		const b = Array.from(card.querySelectorAll<HTMLButtonElement>("button")).find((x) => x.textContent === text);
		if (!b) throw new Error(`no button ${text}`);
		b.click();
	};
	return { m, root, settings, hub: () => hub!, askAndAllow, endOfTurn, serverGot, field, click };
}

const type = (el: HTMLInputElement | HTMLSelectElement, value: string): void => {
	el.value = value;
	el.dispatchEvent(new Event("input", { bubbles: true }));
};

describe("an MCP server's form in the panel", () => {
	it("shows which server asks and each field (labels, required marks, defaults); a problem is said beside its field and keeps what was typed; Send returns the typed content", async () => {
		serveElicit({ message: "Book a ticket?", schema: JSON.stringify(SCHEMA) });
		const p = await panel();
		const card = await p.askAndAllow("Book me a ticket");
		// The settings (rules included) as they are while the server asks.
		const before = JSON.stringify(p.settings);
		expect(card.querySelector(".discover-elicit-title")?.textContent).toBe(t("elicit.from", { server: "stub" }));
		expect(card.querySelector(".discover-elicit-message")?.textContent).toBe("Book a ticket?");
		const names = Array.from(card.querySelectorAll(".discover-elicit-field")).map((f) => f.querySelector(".discover-elicit-name")?.textContent);
		expect(names).toEqual([`Your name${t("elicit.requiredMark")}`, `Age${t("elicit.requiredMark")}`, "Email", "Plan", "Send me news"]);
		expect(p.field(card, "Age").value).toBe("30");
		expect(p.field(card, "Plan").value).toBe("free");
		expect(Array.from((p.field(card, "Plan") as HTMLSelectElement).options).map((o) => o.textContent)).toEqual([t("elicit.choose"), "Free plan", "Pro plan"]);
		expect((p.field(card, "Send me news") as HTMLInputElement).checked).toBe(true);
		expect(p.field(card, "Email").getAttribute("type")).toBe("email");
		expect(card.querySelector(".discover-elicit-help")?.textContent).toBe("As it should appear on the ticket.");

		// Bad input: said beside each field, in words; nothing sent; what was typed stays.
		type(p.field(card, "Age"), "thirty");
		type(p.field(card, "Email"), "ada-at-example");
		p.click(card, t("elicit.send"));
		await flush();
		const errors = Array.from(card.querySelectorAll(".discover-elicit-error")).map((e) => (e.hasClass("discover-chat-hidden") ? "" : e.textContent));
		expect(errors).toEqual([t("elicit.issueRequired"), t("elicit.issueInteger"), t("elicit.issueEmail"), "", ""]);
		expect(p.field(card, "Age").value).toBe("thirty");
		expect(p.field(card, "Age").getAttribute("aria-invalid")).toBe("true");
		expect(card.querySelector(".discover-elicit-summary")?.textContent).toBe(t("elicit.fix", { count: 3 }));
		expect(card.ownerDocument.activeElement).toBe(p.field(card, "Your name"));

		type(p.field(card, "Your name"), "Ada");
		type(p.field(card, "Age"), "36");
		type(p.field(card, "Email"), "ada@example.com");
		type(p.field(card, "Plan"), "pro");
		(p.field(card, "Send me news") as HTMLInputElement).checked = false;
		p.click(card, t("elicit.send"));
		await p.endOfTurn();
		const got = p.serverGot();
		expect(got.caps).toEqual({ elicitation: { form: {} } });
		expect(got.result).toEqual({ action: "accept", content: { name: "Ada", age: 36, email: "ada@example.com", plan: "pro", news: false } });
		expect(card.querySelector(".discover-elicit-record")?.textContent).toBe(t("elicit.recordSent"));
		expect(card.querySelector("form")).toBeNull();
		// What the person sent went to the server only: no setting and no permission changed.
		expect(JSON.parse(JSON.stringify(p.settings))).toEqual(JSON.parse(before));
	}, 60_000);

	it("with the panel not on screen, the form opens in a modal; closing it is a cancel", async () => {
		serveElicit({ message: "Pick a plan", schema: JSON.stringify(SCHEMA) });
		const p = await panel();
		const input = p.root.querySelector<HTMLTextAreaElement>(".discover-chat-input")!;
		typeInto(input, "Ask");
		pressKey(input, "Enter");
		await eventually(() => p.root.querySelector(".discover-permission .mod-cta") !== null, "the permission card");
		p.root.querySelector<HTMLButtonElement>(".discover-permission .mod-cta")!.click();
		p.m.view.contentEl.hide();
		await eventually(() => document.body.querySelector(".discover-elicit-modal .discover-elicit form") !== null, "the modal form");
		expect(p.root.querySelector(".discover-elicit")).toBeNull();
		expect(document.body.querySelector(".discover-elicit-modal .discover-elicit-title")?.textContent).toBe(t("elicit.from", { server: "stub" }));
		document.body.querySelector<HTMLElement>(".discover-elicit-modal .modal-close-button")!.click();
		p.m.view.contentEl.show();
		await p.endOfTurn();
		expect(document.body.querySelector(".discover-elicit-modal")).toBeNull();
		expect(p.serverGot().result).toEqual({ action: "cancel" });
	}, 60_000);

	it("Decline and Cancel go back to the server as they say", async () => {
		serveElicit({ message: "Share your email?", schema: JSON.stringify(SCHEMA) });
		const p = await panel();
		const card = await p.askAndAllow("Ask");
		p.click(card, t("elicit.decline"));
		await p.endOfTurn();
		expect(p.serverGot().result).toEqual({ action: "decline" });
		expect(card.querySelector(".discover-elicit-record")?.textContent).toBe(t("elicit.recordDeclined"));

		serveElicit({ message: "Share your email?", schema: JSON.stringify(SCHEMA) });
		const again = await p.askAndAllow("Ask again");
		p.click(again, t("elicit.cancel"));
		await p.endOfTurn();
		expect(p.serverGot().result).toEqual({ action: "cancel" });
	}, 60_000);

	it("Stop on the chat cancels the open form: the server is told cancel, the card says the request ended", async () => {
		serveElicit({ message: "Wait for me", schema: JSON.stringify(SCHEMA) });
		const p = await panel();
		const card = await p.askAndAllow("Ask");
		p.root.querySelector<HTMLButtonElement>(".discover-chat-send")!.click();
		await p.endOfTurn();
		expect(card.querySelector("form")).toBeNull();
		expect(card.querySelector(".discover-elicit-record")?.textContent).toBe(t("elicit.recordEnded"));
		const hub = await p.hub();
		await eventually(() => hub.state("stub")?.log.some((l) => l.text.startsWith("elicit-answer ")) === true, "the server's answer line");
		const line = hub.state("stub")?.log.find((l) => l.text.startsWith("elicit-answer "))?.text ?? "";
		expect(JSON.parse(line.slice("elicit-answer ".length))).toMatchObject({ result: { action: "cancel" } });
	}, 60_000);

	it("a hostile message (HTML, a Markdown image, a link) is shown as inert text: nothing loads, nothing links", async () => {
		const hostile = '<img src="https://evil.example/a.png" onerror="alert(1)"> ![x](https://evil.example/b.png) [open](obsidian://advanced-uri?commandid=x) <script>alert(2)</script>';
		serveElicit({ message: hostile, schema: JSON.stringify({ type: "object", properties: { ok: { type: "boolean", title: "<b>Bold</b> ![y](https://evil.example/c.png)" } } }) });
		const p = await panel();
		const card = await p.askAndAllow("Ask");
		expect(card.querySelector(".discover-elicit-message")?.textContent).toBe(hostile);
		expect(card.querySelectorAll("img, script, a, b, iframe").length).toBe(0);
		expect(card.querySelector(".discover-elicit-name")?.textContent).toBe("<b>Bold</b> ![y](https://evil.example/c.png)");
		p.click(card, t("elicit.decline"));
		await p.endOfTurn();
	}, 60_000);

	it("a multi-select is a group of labelled checkboxes, the default checked; min/max items are said beside it; Send returns the chosen values as a list", async () => {
		const schema = { type: "object", properties: { tags: { type: "array", title: "Tags", items: { anyOf: [{ const: "w", title: "Work" }, { const: "h", title: "Home" }, { const: "x", title: "Misc" }] }, minItems: 1, maxItems: 2, default: ["h"] } }, required: ["tags"] };
		serveElicit({ message: "Pick tags", schema: JSON.stringify(schema) });
		const p = await panel();
		const card = await p.askAndAllow("Ask");
		const group = card.querySelector("fieldset.discover-elicit-field")!;
		expect(group.querySelector("legend")?.textContent).toBe(`Tags${t("elicit.requiredMark")}`);
		const box = (label: string) => p.field(card, label) as HTMLInputElement;
		expect(["Work", "Home", "Misc"].map((l) => [box(l).type, box(l).checked])).toEqual([["checkbox", false], ["checkbox", true], ["checkbox", false]]);

		box("Home").checked = false;
		p.click(card, t("elicit.send"));
		await flush();
		expect(group.querySelector(".discover-elicit-error")?.textContent).toBe(t("elicit.issueMinItems", { count: 1 }));
		expect(box("Work").getAttribute("aria-invalid")).toBe("true");
		expect(card.ownerDocument.activeElement).toBe(box("Work"));

		for (const l of ["Work", "Home", "Misc"]) box(l).checked = true;
		p.click(card, t("elicit.send"));
		await flush();
		expect(group.querySelector(".discover-elicit-error")?.textContent).toBe(t("elicit.issueMaxItems", { count: 2 }));

		box("Home").checked = false;
		p.click(card, t("elicit.send"));
		await p.endOfTurn();
		expect(p.serverGot().result).toEqual({ action: "accept", content: { tags: ["w", "x"] } });
	}, 60_000);

	it("a form Discover cannot show (a list of free text) is declined at once, with a note on the card", async () => {
		serveElicit({ message: "Pick tags", schema: JSON.stringify({ type: "object", properties: { tags: { type: "array", items: { type: "string" } } } }) });
		const p = await panel();
		const card = await p.askAndAllow("Ask");
		expect(card.querySelector(".discover-elicit-unsupported")?.textContent).toBe(t("elicit.unsupported"));
		await p.endOfTurn();
		expect(p.serverGot().result).toEqual({ action: "decline" });
	}, 60_000);
});
