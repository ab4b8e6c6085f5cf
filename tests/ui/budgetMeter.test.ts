// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { installDomHelpers } from "../obsidian/dom";
import { BudgetMeter, marginText } from "../../src/ui/panel/BudgetMeter";

installDomHelpers(window);

describe("budget meter tooltip", () => {
	it("names the model's safety margin and how many answers it was learned from", () => {
		const meter = new BudgetMeter(document.body.createDiv());
		meter.update(3000, 7680, 7450, { share: 0.04, answers: 37 });
		expect(meter.el.getAttr("aria-label")).toContain("Safety margin 4%, learned from 37 answers.");
		// A prompt event has no margin: the last one stays.
		meter.update(3100, 7680, 7450);
		expect(meter.el.getAttr("aria-label")).toContain("learned from 37 answers");
		expect(marginText({ share: 0.15, answers: 0 })).toBe("Safety margin 15% until the model reports its token counts.");
		expect(marginText({ share: 0.05, answers: 1 })).toBe("Safety margin 5%, learned from 1 answer.");
	});
});
