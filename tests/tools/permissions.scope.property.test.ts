// Property: whatever the model asks and whatever the person answers, every write that lands was
// approved by the person for that very call, or matched a standing grant whose scope covers all
// its paths (a rule's folder and agent, "this chat", or the approved agent's writeFolders); no
// standing grant ever covers a fenced path; a write holding Templater, DataviewJS or an obsidian://
// URI is always asked. Real write tools over a MemoryVault, the real PermissionRules.approverFor,
// the real agentGrants.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolCall } from "../../src/core/types";
import { isFencedPath, isWithinFolder, type Fences } from "../../src/core/pathFences";
import { PermissionRules, type AccessDecision, type AlwaysRule, type AskInfo } from "../../src/tools/permissions";
import { agentGrants } from "../../src/wiring/agentGrants";
import type { Agent } from "../../src/agents/agent";
import { toolbox } from "./support";

const FENCES: Fences = { configDir: ".obsidian", chatsFolder: "Discover/Chats", agentsFolder: "Discover/Agents", excluded: ["Private"] };
const FOLDERS = ["Notes", "notes", "Notes/Deep", "Projects", "Drafts", "Discover/Agents", "discover/agents", "Discover/Chats", "Private", ".obsidian", ""];
const CHATS = ["A", "B", "C"];
const WRITER: Agent = { path: "Discover/Agents/Writer.md", name: "Writer", tools: ["edit_note", "create_note"], sources: [], instructions: "", writeFolders: ["Drafts"] };
const PIECES = ["plain words", "<%* tR += 1 %>", "```dataviewjs\ndv.paragraph(1)\n```", "`$= dv.pages().length`", "[x](obsidian://open?vault=v)"];
const MARKED = (text: string): boolean => /<%|dataviewjs|\$=|obsidian:\/\//i.test(text);

const decision: fc.Arbitrary<AccessDecision> = fc.oneof(
	fc.constant<AccessDecision>({ kind: "deny" }),
	fc.constant<AccessDecision>({ kind: "once" }),
	fc.constant<AccessDecision>({ kind: "chat" }),
	fc.record({ scope: fc.constantFrom<"folder" | "vault">("folder", "vault"), onlyAgent: fc.boolean() }).map((s): AccessDecision => ({ kind: "always", ...s })),
);

const step = fc.record({
	chat: fc.constantFrom(...CHATS),
	tool: fc.constantFrom("create_note", "edit_note"),
	folder: fc.constantFrom(...FOLDERS),
	name: fc.constantFrom("a", "b", "c"),
	text: fc.constantFrom(...PIECES),
	answer: decision,
});

describe("scoped permission (property)", () => {
	it("every landed write was approved for that call or covered by a grant whose scope holds all its paths", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
				const box = toolbox({ "Notes/a.md": "n\n", "Drafts/a.md": "d\n", "Projects/a.md": "p\n", "a.md": "r\n" });
				let rules: AlwaysRule[] = [];
				const store = { readAllowed: () => true, alwaysRules: () => rules, saveAlwaysRules: (r: AlwaysRule[]) => ((rules = r), Promise.resolve()), fences: () => FENCES };
				let current = "A";
				const grants = agentGrants(() => ({ chatId: current, agent: current === "A" ? WRITER : undefined, approved: true }));
				const permissions = new PermissionRules(store, () => new Date(), grants);
				const chatGrants = new Set<string>();
				let n = 0;
				for (const s of steps) {
					current = s.chat;
					const path = s.folder === "" ? `${s.name}.md` : `${s.folder}/${s.name}.md`;
					const args = s.tool === "create_note" ? { path, content: s.text } : { path, mode: "append", text: s.text };
					const call: ToolCall = { id: `c${++n}`, name: s.tool, arguments: args };
					let asked: AskInfo | undefined;
					let wasAsked = false;
					const rulesBefore = [...rules];
					const approve = permissions.approverFor(s.chat, (_c, _t, _p, info) => {
						wasAsked = true;
						asked = info;
						return Promise.resolve(s.answer);
					});
					const tool = box.tool(s.tool);
					const answer = await approve(call, tool);
					if (wasAsked && s.answer.kind === "chat") chatGrants.add(`${s.chat}\u0000${s.tool}`);
					const fenced = isFencedPath(path, FENCES);
					// A marked write is always asked, and is told so.
					if (MARKED(s.text) && answer === "allow") {
						expect(wasAsked).toBe(true);
						expect(asked?.marks.length).toBeGreaterThan(0);
					}
					if (answer !== "allow") continue;
					if (wasAsked) {
						expect(s.answer.kind).not.toBe("deny");
					} else {
						// Unasked: never fenced, never marked, and some standing grant's scope covers the path.
						expect(fenced).toBe(false);
						expect(MARKED(s.text)).toBe(false);
						const agent = s.chat === "A" ? WRITER.path : undefined;
						const byRule = rulesBefore.some((r) => r.tool === s.tool && (r.agent === undefined || r.agent === agent) && isWithinFolder(path, r.folder) && !isFencedPath(r.folder, FENCES));
						const byChat = chatGrants.has(`${s.chat}\u0000${s.tool}`);
						const byAgent = s.chat === "A" && isWithinFolder(path, "Drafts");
						expect(byRule || byChat || byAgent).toBe(true);
					}
					// The write lands (or the tool refuses it: a refusal is no write).
					await box.run(s.tool, args, call.id).catch(() => undefined);
					// No saved rule ever names a fenced folder.
					expect(rules.every((r) => r.folder === "" || !isFencedPath(r.folder, FENCES))).toBe(true);
				}
			}),
			{ numRuns: 150 },
		);
	});
});
