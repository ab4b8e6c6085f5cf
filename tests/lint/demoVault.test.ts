// The demo vault (`npm run vault`) lets a person try every feature in a few minutes: its walkthrough
// names only notes that exist, and the vault holds what each step needs.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { agentFromNote, splitFrontMatter } from "../../src/agents/agent";
import { estimateTokens } from "../../src/chat/tokens";
import { DEFAULT_SETTINGS } from "../../src/settings/settings";
import { parseYaml } from "../obsidian/yaml";
import { ROOT } from "./sourceGraph";

const VAULT = join(ROOT, "demo-vault");

/** Every Markdown note's vault path, outside the config folder. */
function notes(dir = VAULT): string[] {
	return readdirSync(dir).flatMap((name) => {
		const full = join(dir, name);
		if (name.startsWith(".")) return [];
		if (statSync(full).isDirectory()) return notes(full);
		return name.endsWith(".md") ? [relative(VAULT, full).split("\\").join("/")] : [];
	});
}

const read = (path: string): string => readFileSync(join(VAULT, path), "utf8");
const baseName = (path: string): string => (path.split("/").pop() ?? path).replace(/\.md$/, "");
/** `[[Target]]`, `[[Target|shown]]`, `[[Target#Heading]]` → "Target". */
const linkTargets = (text: string): string[] => [...text.matchAll(/\[\[([^\]|#]+)[^\]]*\]\]/g)].map((m) => (m[1] ?? "").trim());
/** Resolved like Obsidian's shortest-path links: a name, or a path without `.md`. */
function resolves(target: string, paths: readonly string[]): boolean {
	return paths.some((p) => baseName(p) === target || p === `${target}.md` || p === target);
}

describe("the demo vault", () => {
	const paths = notes();

	it("has a walkthrough, and every note a link in the vault names exists", () => {
		expect(paths).toContain("Start here.md");
		const broken = paths.flatMap((p) => linkTargets(read(p)).filter((t) => !resolves(t, paths)).map((t) => `${p} → [[${t}]]`));
		// The agent's instructions mention "[[link]]" as a form to use, not a note.
		expect(broken.filter((b) => !b.endsWith("→ [[link]]"))).toEqual([]);
		// The walkthrough leads through the vault: to notes in at least four of its folders.
		const linked = linkTargets(read("Start here.md")).map((t) => paths.find((p) => baseName(p) === t) ?? "");
		expect(new Set(linked.filter((p) => p.includes("/")).map((p) => p.slice(0, p.lastIndexOf("/")))).size).toBeGreaterThanOrEqual(4);
	});

	it("names in the walkthrough only folders, tags and commands that exist", () => {
		const text = read("Start here.md");
		const folders = [...text.matchAll(/`([^`]+\/)`/g)].map((m) => m[1] ?? "");
		expect(folders.length).toBeGreaterThan(0);
		// The chats folder is made by the plugin with the first chat; every other folder ships.
		for (const folder of folders.filter((f) => f !== `${DEFAULT_SETTINGS.sessionsFolder}/`)) expect(paths.some((p) => p.startsWith(folder)), folder).toBe(true);
		const tags = [...text.matchAll(/`(#[\w/-]+)`/g)].map((m) => m[1] ?? "");
		expect(tags.length).toBeGreaterThan(0);
		const allTags = new Set(paths.flatMap((p) => {
			const { yaml } = splitFrontMatter(read(p));
			const fm = yaml === undefined ? {} : (parseYaml(yaml) as { tags?: string[] });
			return (fm.tags ?? []).map((t) => `#${t}`);
		}));
		for (const tag of tags) expect(allTags.has(tag), tag).toBe(true);
		// Folders and tags enough for `@` mentions to show each kind.
		expect(new Set(paths.filter((p) => p.includes("/")).map((p) => p.split("/")[0])).size).toBeGreaterThanOrEqual(4);
		expect(allTags.size).toBeGreaterThanOrEqual(4);
		expect(text).toContain(`${DEFAULT_SETTINGS.sessionsFolder}/`);
	});

	it("holds a note longer than the default window, for relevance fitting", () => {
		const longest = Math.max(...paths.map((p) => estimateTokens(read(p))));
		expect(longest).toBeGreaterThan(DEFAULT_SETTINGS.maxPromptTokens);
		// The walkthrough's question has its answer deep inside it, not in its first window.
		const log = read("Voyage/Ship's log.md");
		const at = log.indexOf("spare compass");
		expect(at).toBeGreaterThan(0);
		expect(estimateTokens(log.slice(0, at))).toBeGreaterThan(DEFAULT_SETTINGS.maxPromptTokens);
		expect(read("Start here.md")).toContain("spare compass");
	});

	it("holds a note with a web image, to see it held back", () => {
		expect(paths.some((p) => /!\[[^\]]*\]\(https:\/\/[^)]+\)/.test(read(p)))).toBe(true);
	});

	it("ships an agent in the agents folder that reads but never writes", () => {
		const agents = paths.filter((p) => p.startsWith(`${DEFAULT_SETTINGS.agentsFolder}/`));
		expect(agents.length).toBeGreaterThan(0);
		for (const path of agents) {
			const { yaml, body } = splitFrontMatter(read(path));
			const result = agentFromNote(path, parseYaml(yaml ?? ""), body);
			if (!result.ok) throw new Error(`${path}: ${JSON.stringify(result.issue)}`);
			expect(result.agent.tools.length).toBeGreaterThan(0);
			expect(result.agent.tools.filter((t) => t === "create_note" || t === "edit_note")).toEqual([]);
			expect(read("Start here.md")).toContain(`[[${baseName(path)}]]`);
		}
	});
});
