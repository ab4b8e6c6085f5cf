// The review card's facts, computed by the same rule the requests use (keyFor): where requests go,
// which key goes with them (or why none), which writes run unasked and where, what every message
// carries; and the sentences the card shows for them.
import { describe, expect, it } from "vitest";
import type { Agent } from "../../src/agents/agent";
import { agentFacts } from "../../src/agents/agentFacts";
import type { KeySettings } from "../../src/settings/keyBinding";
import { reviewLines } from "../../src/ui/agents/AgentReviewCard";

const settings: KeySettings = { provider: "anthropic", baseUrl: "https://api.anthropic.com", apiKeySecret: "company-key" };
const agent = (fields: Partial<Agent>): Agent => ({ path: "Discover/Agents/A.md", name: "A", tools: [], sources: [], instructions: "", ...fields });

describe("agentFacts", () => {
	it("an agent on the settings' server uses the settings' key, and says so", () => {
		const facts = agentFacts(agent({ model: "claude-sonnet-4" }), settings);
		expect(facts).toMatchObject({ provider: "anthropic", origin: "https://api.anthropic.com", key: { kind: "settings", secret: "company-key" } });
		expect(reviewLines(facts)).toEqual(["Sends your messages and notes to https://api.anthropic.com (anthropic, claude-sonnet-4).", "Uses your key from settings (“company-key”), which is for https://api.anthropic.com."]);
	});

	it("writes without write folders ask each time; write folders are named; reads and sources are listed", () => {
		expect(reviewLines(agentFacts(agent({ tools: ["edit_note"] }), settings))).toContain("May create and edit notes, asking you each time.");
		const lines = reviewLines(agentFacts(agent({ tools: ["create_note", "search_notes"], writeFolders: ["Projects", "Notes/Daily"], sources: [{ type: "folder", path: "Private" }, { type: "note", link: "Style" }] }), settings));
		expect(lines.slice(2)).toEqual(["May create and edit notes in Notes/Daily/, Projects/ without asking; anywhere else it asks.", "May search and read your notes without asking.", "Adds Private/, [[Style]] to every message."]);
		// Write folders without a write tool grant nothing, and the card does not mention them.
		expect(agentFacts(agent({ tools: ["read_note"], writeFolders: ["Projects"] }), settings)).toMatchObject({ writes: false, unaskedWriteFolders: [] });
	});
});
