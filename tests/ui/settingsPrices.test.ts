// @vitest-environment happy-dom
// The settings tab's Prices section: add a model's prices, edit them in place, remove them, pick
// the currency; a value that is not a price says why and is not saved.
import { describe, expect, it } from "vitest";
import { flush, readPluginDataText, typeInto } from "../obsidian/harness";
import { openSettingTab } from "./settingTabHarness";
import { DEFAULT_SETTINGS } from "../../src/settings/settings";

async function setup(data: unknown = {}) {
	const { plugin, app, el, row, messageOf } = await openSettingTab({ data });
	const field = (name: string, label: string): HTMLInputElement => row(name).querySelector<HTMLInputElement>(`input[aria-label="${label}"]`)!;
	const saved = async (): Promise<Record<string, unknown>> => JSON.parse((await readPluginDataText(app)) ?? "{}") as Record<string, unknown>;
	return { plugin, el, row, field, messageOf, saved };
}

const IN = "Input price per million tokens";
const OUT = "Output price per million tokens";

describe("Settings tab: prices", () => {
	it("adds a model's prices; a bad value or a missing name says why and saves nothing", async () => {
		const t = await setup();
		expect(t.el.getText()).toContain("No prices yet.");
		const add = (model: string, input: string, output: string): void => {
			typeInto(t.field("Add a model's prices", "Model name"), model);
			typeInto(t.field("Add a model's prices", IN), input);
			typeInto(t.field("Add a model's prices", OUT), output);
			t.row("Add a model's prices").find("button").click();
		};
		add("gpt-4o-mini", "-1", "0.6");
		await flush();
		expect(t.messageOf("Add a model's prices")).toBe("A price can't be negative.");
		add("gpt-4o-mini", "0.15", "cheap");
		await flush();
		expect(t.messageOf("Add a model's prices")).toBe("Enter the price as a number, like 0.15.");
		add("", "0.15", "0.6");
		await flush();
		expect(t.messageOf("Add a model's prices")).toBe("Enter the model's name.");
		expect(t.plugin.settings.modelPrices).toEqual([]);
		// What was typed stays, to be corrected.
		expect(t.field("Add a model's prices", IN).value).toBe("0.15");
		add("gpt-4o-mini", "0,15", "0.6");
		await flush();
		expect(t.plugin.settings.modelPrices).toEqual([{ model: "gpt-4o-mini", input: 0.15, output: 0.6 }]);
		expect((await t.saved()).modelPrices).toEqual([{ model: "gpt-4o-mini", input: 0.15, output: 0.6 }]);
		add("gpt-4o-mini", "1", "2");
		await flush();
		expect(t.messageOf("Add a model's prices")).toBe("gpt-4o-mini already has prices.");
	});

	it("edits a price in place (refusing a bad one), and removes a model", async () => {
		const modelPrices = [
			{ model: "gpt-4o-mini", input: 0.15, output: 0.6 },
			{ model: "claude-x", input: 3, output: 15 },
		];
		const t = await setup({ ...DEFAULT_SETTINGS, modelPrices });
		expect(t.field("claude-x", OUT).value).toBe("15");
		typeInto(t.field("claude-x", OUT), "abc");
		await flush();
		expect(t.messageOf("claude-x")).toBe("Enter the price as a number, like 0.15.");
		expect(t.plugin.settings.modelPrices[1]?.output).toBe(15);
		typeInto(t.field("claude-x", OUT), "12.5");
		await flush();
		expect(t.messageOf("claude-x")).toBe("");
		expect((await t.saved()).modelPrices).toEqual([modelPrices[0], { model: "claude-x", input: 3, output: 12.5 }]);
		t.row("gpt-4o-mini").find(".extra-setting-button").click();
		await flush();
		expect((await t.saved()).modelPrices).toEqual([{ model: "claude-x", input: 3, output: 12.5 }]);
		expect(t.el.findAll(".setting-item-name").map((n) => n.getText())).not.toContain("gpt-4o-mini");
	});

	it("the currency takes a three-letter code and refuses anything else", async () => {
		const t = await setup();
		const currency = t.row("Currency").find("input") as HTMLInputElement;
		typeInto(currency, "euros");
		await flush();
		expect(t.messageOf("Currency")).toBe("Enter the currency as its three-letter code.");
		expect(t.plugin.settings.priceCurrency).toBe("USD");
		typeInto(currency, "eur");
		await flush();
		expect((await t.saved()).priceCurrency).toBe("EUR");
	});
});
