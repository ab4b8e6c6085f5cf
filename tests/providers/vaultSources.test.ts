import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NodeVault } from "../../scripts/nodeVault";
import { mentionsVault, retrievedSources, vaultQuery, type PassageIndex } from "../../scripts/vaultSources";

/** A stand-in for NoteIndex: every note is one passage, scored by shared words. */
class WordIndex implements PassageIndex {
	readonly notes = new Map<string, { name: string; text: string }>();
	upsert(id: string, text: string, name = id): void {
		this.notes.set(id, { name, text });
	}
	/** Fills the index from a folder's notes as the chat's vault lists and reads them. */
	static async of(vault: NodeVault): Promise<WordIndex> {
		const index = new WordIndex();
		for (const note of vault.listNotes()) index.upsert(note.path, await vault.read(note.path), note.path.replace(/^.*\//, "").replace(/\.md$/, ""));
		return index;
	}
	search(query: string, opts: { limit?: number } = {}): { id: string; name: string; score: number; text: string }[] {
		const words = new Set(query.toLowerCase().split(/\W+/u).filter(Boolean));
		return [...this.notes.entries()]
			.map(([id, n]) => ({ id, name: n.name, text: n.text, score: n.text.toLowerCase().split(/\W+/u).filter((w) => words.has(w)).length }))
			.filter((h) => h.score > 0)
			.sort((x, y) => y.score - x.score)
			.slice(0, opts.limit ?? 10);
	}
}

describe("@vault in the terminal chat", () => {
	it("is a word of its own in the message, and is left out of the query", () => {
		expect(mentionsVault("What does coffee cost? @vault")).toBe(true);
		expect(mentionsVault("@Vault, what does coffee cost")).toBe(true);
		expect(mentionsVault("mail me at me@vault.example")).toBe(false);
		expect(mentionsVault("@vaults")).toBe(false);
		expect(vaultQuery("@vault what does coffee cost? @vault")).toBe("what does coffee cost?");
	});

	it("turns the passages found into retrieved sources, one per note, passages joined with […]", () => {
		const index: Pick<PassageIndex, "search"> = {
			search: () => [
				{ id: "a.md", name: "A", score: 3, text: "first" },
				{ id: "b.md", name: "B", score: 2, text: "other" },
				{ id: "a.md", name: "A", score: 1, text: "second" },
			],
		};
		expect(retrievedSources(index, "q")).toEqual([
			{ id: "a.md", name: "A", text: "first\n\n[…]\n\nsecond", kind: "retrieved" },
			{ id: "b.md", name: "B", text: "other", kind: "retrieved" },
		]);
	});

	it("indexes every Markdown note under the folder by its vault path, skipping hidden folders, in the plugin's NoteIndex", async () => {
		const dir = await mkdtemp(join(tmpdir(), "discover-vault-"));
		try {
			await mkdir(join(dir, "Café", "Menu"), { recursive: true });
			await mkdir(join(dir, ".obsidian"));
			await writeFile(join(dir, "Café", "Menu", "Prices.md"), "Coffee costs three euros.");
			await writeFile(join(dir, "Hours.md"), "Open at nine.");
			await writeFile(join(dir, ".obsidian", "workspace.md"), "coffee");
			await writeFile(join(dir, "image.png"), "coffee");
			const vault = await NodeVault.open(dir);
			const index = await WordIndex.of(vault);
			expect([...index.notes.keys()].sort()).toEqual(["Café/Menu/Prices.md", "Hours.md"]);
			expect(retrievedSources(index, "what does coffee cost")).toEqual([{ id: "Café/Menu/Prices.md", name: "Prices", text: "Coffee costs three euros.", kind: "retrieved" }]);
			expect(retrievedSources(vault.index, "what does coffee cost").map((r) => r.id)).toEqual(["Café/Menu/Prices.md"]);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});
});
