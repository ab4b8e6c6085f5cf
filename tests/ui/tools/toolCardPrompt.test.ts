// @vitest-environment happy-dom
// A permission prompt mounting in its card is a change of size: the transcript must hear of it at
// once (to follow it down), not only after the person has answered.
import { describe, expect, it } from "vitest";
import "../../obsidian/harness";
import { ToolCardView } from "../../../src/ui/panel/tools/ToolCardView";

describe("a tool card's permission prompt", () => {
	it("reports the card's new size as soon as the prompt is on screen, before any decision", async () => {
		const parent = document.body.createDiv();
		let resizes = 0;
		const view = new ToolCardView(parent, { id: "c1", index: 0, round: 0, name: "edit_note", state: "waiting", waitingFor: "permission", arguments: { path: "Notes/Tides.md" } }, { tools: () => undefined, onResize: () => resizes++ });
		const before = resizes;
		let decide: (v: string) => void = () => undefined;
		const asked = view.ask((slot) => {
			slot.createDiv({ cls: "discover-permission", text: "Accept" });
			return new Promise<string>((resolve) => (decide = resolve));
		});
		await Promise.resolve();
		expect(view.permissionEl.querySelector(".discover-permission")).not.toBeNull();
		expect(resizes).toBeGreaterThan(before);
		decide("once");
		await expect(asked).resolves.toBe("once");
		parent.remove();
	});
});
