// The browser test's stand-in theme (tests/e2e/theme.css) must define every CSS variable the
// plugin's stylesheet uses, in both light and dark: an undefined variable silently falls back to
// nothing (no colour on a diff, no border), and the screenshots would hide the defect.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./sourceGraph";

/** The custom properties a stylesheet reads with `var(--name…)`, comments left out. */
export function usedVariables(css: string): Set<string> {
	const text = css.replace(/\/\*[\s\S]*?\*\//g, "");
	return new Set([...text.matchAll(/var\(\s*(--[\w-]+)/g)].map((m) => m[1] ?? ""));
}

/** The custom properties each rule of a stylesheet defines, by selector. */
export function definedVariables(css: string): Map<string, Set<string>> {
	const text = css.replace(/\/\*[\s\S]*?\*\//g, "");
	const out = new Map<string, Set<string>>();
	for (const rule of text.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
		const selector = (rule[1] ?? "").trim();
		const names = [...(rule[2] ?? "").matchAll(/(--[\w-]+)\s*:/g)].map((m) => m[1] ?? "");
		if (names.length === 0) continue;
		const set = out.get(selector) ?? new Set<string>();
		for (const n of names) set.add(n);
		out.set(selector, set);
	}
	return out;
}

/** Variables used but defined for neither every theme (body) nor both light and dark. */
export function undefinedVariables(pluginCss: string, themeCss: string): string[] {
	const defined = definedVariables(themeCss);
	const own = new Set([...definedVariables(pluginCss).values()].flatMap((s) => [...s]));
	const all = defined.get("body") ?? new Set<string>();
	const light = defined.get("body.theme-light") ?? new Set<string>();
	const dark = defined.get("body.theme-dark") ?? new Set<string>();
	return [...usedVariables(pluginCss)].filter((v) => !own.has(v) && !all.has(v) && !(light.has(v) && dark.has(v))).sort();
}

describe("the browser test's theme", () => {
	const pluginCss = readFileSync(join(ROOT, "styles.css"), "utf8");
	const themeCss = readFileSync(join(ROOT, "tests/e2e/theme.css"), "utf8");

	it("defines, in light and in dark, every variable the plugin's stylesheet uses", () => {
		expect(usedVariables(pluginCss).size).toBeGreaterThan(30);
		expect(undefinedVariables(pluginCss, themeCss)).toEqual([]);
	});

	it("also for the variables the theme's own rules read", () => {
		expect(undefinedVariables(themeCss, themeCss)).toEqual([]);
	});

	it("catches a variable defined only in light, and one not defined at all", () => {
		const theme = "body { --a: 1px; } body.theme-light { --b: red; } body.theme-dark { --c: blue; }";
		expect(undefinedVariables(".x { width: var(--a); color: var(--b); border: var(--d, 1px); }", theme)).toEqual(["--b", "--d"]);
	});
});
