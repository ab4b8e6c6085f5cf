// The README and docs/architecture.md describe what the code does: the figures come from the
// engine's own functions, the prompt diagram follows the order composeSystemMessage writes, the quick
// start names what a new user needs, and every setting and command is documented, in the tab's order.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compactionBudget } from "../../src/chat/compaction";
import { promptBudget } from "../../src/chat/chatSettings";
import { buildPrompt } from "../../src/chat/prompt";
import { DEFAULT_CHAT_SETTINGS } from "../../src/core/types";
import { ROOT } from "./sourceGraph";

const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const architecture = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
const manifest = JSON.parse(readFileSync(join(ROOT, "manifest.json"), "utf8")) as { minAppVersion: string };
const fmt = (n: number): string => n.toLocaleString("en-US");

function section(title: string, doc = readme): string {
	const start = doc.indexOf(`## ${title}`);
	expect(start).toBeGreaterThan(-1);
	const end = doc.indexOf("\n## ", start + 3);
	return doc.slice(start, end < 0 ? undefined : end);
}

describe("README", () => {
	it("is for people who use the plugin: under 250 lines, with the details in docs/", () => {
		expect(readme.split("\n").length).toBeLessThan(250);
		for (const doc of ["architecture", "security", "reliability", "performance", "development"]) expect(readme).toContain(`(docs/${doc}.md)`);
	});

	it("quick start: the minimum Obsidian version and what must be running", () => {
		const quick = section("Quick start");
		expect(quick).toContain(`Obsidian ${manifest.minAppVersion} or newer`);
		expect(quick).toContain("ollama pull llama3.2");
		expect(quick).toMatch(/OpenAI-compatible server such as LM Studio/);
		expect(quick).toContain("Open this folder as a vault:");
	});

	it("gives the budget figures the engine computes, and summary requests their own limit (not B)", () => {
		const window = section("How a chat stays inside the model's window", architecture);
		const budget = compactionBudget(DEFAULT_CHAT_SETTINGS);
		const { maxPromptTokens } = DEFAULT_CHAT_SETTINGS;
		expect(window).toContain(`budget B (${promptBudget(DEFAULT_CHAT_SETTINGS)})`);
		expect(window).toContain(`${fmt(budget.prompt)} by default`);
		expect(window).toContain(`at most ${budget.summaryMaxTokens} tokens (\`summaryMaxTokens\`)`);
		expect(window).toContain(`(${maxPromptTokens} − ${budget.summaryMaxTokens}) = ${fmt(budget.summaryRequest)} by default`);
		// What a chat prompt may take is not what a summary request may take.
		expect(budget.summaryRequest).not.toBe(budget.prompt);
	});

	it("draws the prompt in the order it is sent: instructions and summary in the system message, the note with your message", () => {
		const diagram = /```\n( maxPromptTokens[\s\S]*?)```/.exec(section("How a chat stays inside the model's window", architecture))?.[1] ?? "";
		const row = diagram.split("\n").find((l) => l.includes("instructions")) ?? "";
		// What the engine builds: the note is not in the system message but in the last (user) message, before the question.
		const built = buildPrompt({ systemPrompt: "INSTRUCTIONS", summary: "SUMMARY", context: { text: "NOTE TEXT", name: "Note" }, history: [], current: "QUESTION", budget: 4000 });
		const system = built.messages.find((m) => m.role === "system")?.content ?? "";
		const last = built.messages[built.messages.length - 1];
		expect(system.indexOf("INSTRUCTIONS")).toBeLessThan(system.indexOf("SUMMARY"));
		expect(system).not.toContain("NOTE TEXT");
		expect(last?.role).toBe("user");
		expect(last?.content.indexOf("NOTE TEXT")).toBeLessThan(last?.content.indexOf("QUESTION") ?? -1);
		// The diagram says the same, left to right.
		const at = (words: string): number => row.indexOf(words);
		for (const words of ["instructions", "summary", "earlier turns", "the note", "your message"]) expect(at(words), words).toBeGreaterThan(-1);
		expect(at("instructions")).toBeLessThan(at("summary"));
		expect(at("summary")).toBeLessThan(at("earlier turns"));
		expect(at("earlier turns")).toBeLessThan(at("the note"));
		expect(at("the note")).toBeLessThan(at("your message"));
		const box = diagram.split("\n").find((l) => l.includes("one leading system message")) ?? "";
		expect(box.trimEnd().length).toBeLessThan(at("earlier turns"));
	});

	it("says the note toggle belongs to the panel, not to each chat", () => {
		const row = readme.split("\n").find((l) => l.includes("`includeActiveNote`")) ?? "";
		expect(row).not.toMatch(/per chat/);
		expect(row).toMatch(/for that panel, whichever chat is open/);
	});
});
