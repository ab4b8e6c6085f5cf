// @vitest-environment happy-dom
// The error card says one thing: its title, then one message (the connection check's diagnosis
// once it comes), with code as code; the transport's raw words only folded under "Details".
import { afterEach, describe, expect, it } from "vitest";
import { flush, pressKey, typeInto } from "../obsidian/harness";
import { LLMError } from "../../src/providers/errors";
import { diagnose } from "../../src/ui/panel/errorDiagnosis";
import { mountView, type Mounted } from "./mountView";

let mounted: Mounted | undefined;
afterEach(async () => {
	mounted?.leaf.detach();
	await flush();
	document.body.empty();
	mounted = undefined;
});

const ADAPTER_WORDS = "Could not reach Ollama at http://127.0.0.1:1: Failed to fetch. Is the server running?";

async function failToReach(probe: string | Error): Promise<HTMLElement> {
	mounted = await mountView({
		before: (w) => {
			w.adapter.testConnection = () => (probe instanceof Error ? Promise.reject(probe) : Promise.resolve({ ok: false, kind: "unreachable", message: probe }));
		},
	});
	typeInto(mounted.input(), "Anyone there?");
	pressKey(mounted.input(), "Enter");
	await flush();
	mounted.chat.fail(new LLMError("network", ADAPTER_WORDS));
	await flush();
	await flush();
	return mounted.q(".discover-chat-error");
}

/** What the card shows while "Details" is folded. */
function visibleText(card: HTMLElement): string {
	const copy = card.cloneNode(true) as HTMLElement;
	copy.querySelectorAll("details > :not(summary)").forEach((el) => el.remove());
	return copy.textContent ?? "";
}

describe("the error card", () => {
	it("says one thing, the diagnosis, with the adapter's words only under a folded Details", async () => {
		const card = await failToReach("Can't reach Ollama at http://127.0.0.1:1. Is it running? Run `ollama serve` in a terminal.");
		const shown = visibleText(card);
		expect(shown).not.toContain("Failed to fetch");
		expect(shown).not.toContain("Could not reach");
		expect(card.querySelectorAll(".discover-chat-error-message")).toHaveLength(1);
		expect(card.querySelector(".discover-chat-error-message")?.textContent).toBe("Can't reach Ollama at http://127.0.0.1:1. Is it running? Run ollama serve in a terminal.");
		const details = card.querySelector("details");
		expect(details?.open).toBe(false);
		expect(details?.querySelector("summary")?.textContent).toBe("Details");
		expect(details?.textContent).toContain("Failed to fetch");
	});

	it("shows code as code, never a backtick", async () => {
		const card = await failToReach("Run `ollama serve` in a terminal.");
		expect(card.textContent).not.toContain("`");
		expect(Array.from(card.querySelectorAll(".discover-chat-error-message code")).map((c) => c.textContent)).toEqual(["ollama serve"]);
	});

	it("keeps the advice when the connection check itself fails", async () => {
		const card = await failToReach(new Error("check failed"));
		expect(card.querySelector(".discover-chat-error-message")?.textContent).toBe(diagnose(new LLMError("network", ADAPTER_WORDS)).detail);
	});

	it("words from a server stay text, even when they look like markup", () => {
		const d = diagnose(new LLMError("server", "<img src=x onerror=alert(1)> `boom`"));
		expect(d.said).toBe("<img src=x onerror=alert(1)> `boom`");
		expect(d.detail).not.toContain("boom");
	});
});
