// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import "obsidian";

describe("DOM helpers", () => {
	it("createEl applies class, text, attributes and parent", () => {
		const root = createDiv();
		const a = root.createEl("a", { cls: ["x", "y"], text: "Hi", attr: { "aria-label": "Go", hidden: null }, href: "https://e.org" });
		expect(a.parentElement).toBe(root);
		expect(a.className).toBe("x y");
		expect(a.getText()).toBe("Hi");
		expect(a.getAttr("aria-label")).toBe("Go");
		expect(a.hasAttribute("hidden")).toBe(false);
		expect(a.getAttr("href")).toBe("https://e.org");
	});

	it("a string info is the class, prepend inserts first, callbacks run", () => {
		const root = createDiv();
		root.createSpan("second");
		let seen: HTMLElement | null = null;
		const first = root.createDiv({ cls: "first", prepend: true }, (el) => (seen = el));
		expect(root.firstElementChild).toBe(first);
		expect(seen).toBe(first);
		expect(root.find(".second")?.tagName).toBe("SPAN");
	});

	it("class helpers, setAttr, empty, detach, findAll", () => {
		const root = createDiv();
		const el = root.createDiv();
		el.addClass("a", "b");
		el.removeClass("a");
		el.toggleClass("c", true);
		expect(el.hasClass("a")).toBe(false);
		expect(el.hasClass("b") && el.hasClass("c")).toBe(true);
		el.setAttr("data-n", 3);
		expect(el.getAttribute("data-n")).toBe("3");
		el.setAttr("data-n", null);
		expect(el.hasAttribute("data-n")).toBe(false);
		root.createDiv("b");
		expect(root.findAll(".b")).toHaveLength(2);
		el.detach();
		expect(root.children).toHaveLength(1);
		root.empty();
		expect(root.childNodes).toHaveLength(0);
	});

	it("instanceOf checks a node's class, as Obsidian's does (and returns)", () => {
		const input = createEl("input");
		expect(input.instanceOf(HTMLInputElement)).toBe(true);
		expect(input.instanceOf(HTMLElement)).toBe(true);
		expect(createDiv().instanceOf(HTMLInputElement)).toBe(false);
	});

	it("setText accepts a fragment; createFragment builds one", () => {
		const el = createDiv({ text: "old" });
		el.setText(createFragment((f) => f.createEl("b", { text: "New" })));
		expect(el.innerHTML).toBe("<b>New</b>");
	});

	it("show/hide and delegated events", () => {
		const root = createDiv();
		document.body.appendChild(root);
		const btn = root.createEl("button", "go");
		let hits = 0;
		root.on("click", ".go", () => hits++);
		btn.click();
		root.createDiv().click();
		expect(hits).toBe(1);
		btn.hide();
		expect(btn.isShown()).toBe(false);
		btn.show();
		expect(btn.isShown()).toBe(true);
		expect(activeDocument).toBe(document);
	});
});
