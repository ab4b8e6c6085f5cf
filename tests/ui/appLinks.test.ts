// @vitest-environment happy-dom
// `obsidian://` links in answers: they can run other plugins' commands (Advanced URI),
// so their full address is shown and a click asks first, naming that address; nothing opens unless
// the person says so.
import { afterEach, describe, expect, it, vi } from "vitest";
import { Component } from "obsidian";
import { asObsidianApp, createTestApp, flush } from "../obsidian/harness";
import { renderUntrustedMarkdown } from "../../src/ui/safeMarkdown";

afterEach(() => {
	document.body.empty();
	vi.restoreAllMocks();
});

const URI = "obsidian://advanced-uri?vault=Work&commandid=editor%3Adelete-file";

async function render(markdown: string): Promise<HTMLElement> {
	const app = asObsidianApp(await createTestApp());
	const el = createDiv();
	const component = new Component();
	component.load();
	await renderUntrustedMarkdown(app, markdown, el, "", component, false);
	document.body.append(el);
	return el;
}

function confirmModal(): HTMLElement | null {
	return document.body.querySelector<HTMLElement>(".discover-chat-confirm");
}

describe("obsidian:// links in answers", () => {
	it("show their full address beside their words", async () => {
		const el = await render(`Done! [Open your summary](${URI}) when ready.`);
		const link = el.querySelector<HTMLAnchorElement>("a")!;
		expect(link.textContent).toBe("Open your summary");
		expect(el.textContent).toContain(URI);
		expect(link.getAttribute("title")).toBe(URI);
	});

	it("ask before opening, naming the full address; Cancel opens nothing, the confirm button opens it", async () => {
		const opened = vi.spyOn(window, "open").mockImplementation(() => null);
		const el = await render(`[Open your summary](${URI})`);
		const link = el.querySelector<HTMLAnchorElement>("a")!;
		const click = new MouseEvent("click", { bubbles: true, cancelable: true });
		link.dispatchEvent(click);
		expect(click.defaultPrevented).toBe(true);
		await flush();
		expect(confirmModal()?.textContent).toContain(URI);
		expect(opened).not.toHaveBeenCalled();
		Array.from(confirmModal()!.querySelectorAll("button")).find((b) => !b.hasClass("mod-warning"))!.click();
		await flush();
		expect(opened).not.toHaveBeenCalled();

		link.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
		await flush();
		confirmModal()!.querySelector<HTMLButtonElement>("button.mod-warning")!.click();
		await flush();
		expect(opened).toHaveBeenCalledWith(URI);
	});

	it("web links are left as they were: no question", async () => {
		const el = await render("[Docs](https://example.com/docs)");
		const click = new MouseEvent("click", { bubbles: true, cancelable: true });
		el.querySelector("a")!.dispatchEvent(click);
		await flush();
		expect(confirmModal()).toBeNull();
		expect(el.textContent).toBe("Docs");
	});
});
