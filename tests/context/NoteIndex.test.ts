import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { indexInSlices } from "../../src/context/indexInSlices";
import { NOTE_INDEX_VERSION, NoteIndex } from "../../src/context/NoteIndex";
import { textArb } from "../support/scriptTexts";

const noteArb = fc.record({ id: fc.constantFrom("a.md", "b.md", "Folder/c.md", "d.md", "日本/メモ.md"), text: fc.array(textArb, { maxLength: 12 }).map((p) => p.join("\n\n")) });
const queries = ["budget window", "世界 会話", "привет мир", "Zusammenfassung", "résumé", "the", "42"];

function vault(): NoteIndex {
	const index = new NoteIndex();
	index.upsert("Garden.md", "# Garden\n\nTomatoes need sun.\n\n## Compost\n\nTurn the compost heap every week.", undefined, 100);
	index.upsert("Trips/Kyoto.md", "# 京都\n\n金閣寺は北山にある禅寺です。\n\n嵐山の竹林も有名です。", undefined, 200);
	index.upsert("Russian.md", "# Заметки\n\nСмотритель маяка перекрасил фонарное помещение.");
	index.upsert("Code.md", "The helper resolveVaultPath returns the absolute folder of a note.");
	return index;
}

describe("NoteIndex", () => {
	it("finds passages in any script, best first, with the note's id, name and passage text", () => {
		const index = vault();
		expect(index.size).toBe(4);
		const compost = index.search("how often should I turn the compost?");
		expect(compost[0]).toMatchObject({ id: "Garden.md", name: "Garden", text: "## Compost\n\nTurn the compost heap every week." });
		expect(index.search("金閣寺はどこ")[0]?.id).toBe("Trips/Kyoto.md");
		expect(index.search("маяка смотритель")[0]?.id).toBe("Russian.md");
		expect(index.search("vault path")[0]?.id).toBe("Code.md");
		const scores = index.search("compost tomatoes sun").map((h) => h.score);
		expect(scores).toEqual([...scores].sort((a, b) => b - a));
		expect(index.search("compost", { limit: 0 })).toEqual([]);
	});

	it("replaces a note on re-upsert and forgets it on remove", () => {
		const index = vault();
		index.upsert("Garden.md", "# Garden\n\nOnly roses now.");
		expect(index.search("compost")).toEqual([]);
		expect(index.search("roses")[0]?.id).toBe("Garden.md");
		index.remove("Garden.md");
		index.remove("never-indexed.md");
		expect(index.search("roses")).toEqual([]);
		expect(index.size).toBe(3);
		expect(index.has("Garden.md")).toBe(false);
	});

	it("upsert then remove leaves no trace: the saved form and every search are as before", () => {
		fc.assert(
			fc.property(fc.array(noteArb, { maxLength: 4 }), noteArb, (notes, extra) => {
				const index = new NoteIndex();
				for (const n of notes) index.upsert(n.id, n.text);
				const id = `extra/${extra.id}`;
				const before = JSON.stringify(index.toJSON());
				const results = queries.map((q) => index.search(q));
				index.upsert(id, extra.text);
				index.remove(id);
				expect(JSON.stringify(index.toJSON())).toBe(before);
				expect(queries.map((q) => index.search(q))).toEqual(results);
			}),
			{ numRuns: 60 },
		);
	});

	it("toJSON → JSON → fromJSON gives the same search results, sizes and mtimes", () => {
		fc.assert(
			fc.property(fc.array(fc.tuple(noteArb, fc.option(fc.integer({ min: 0, max: 2e12 }), { nil: undefined })), { maxLength: 6 }), (notes) => {
				const index = new NoteIndex();
				for (const [n, mtime] of notes) index.upsert(n.id, n.text, undefined, mtime);
				const loaded = NoteIndex.fromJSON(JSON.parse(JSON.stringify(index.toJSON())));
				expect(loaded.size).toBe(index.size);
				expect(loaded.entries()).toEqual(index.entries());
				for (const q of queries) expect(loaded.search(q)).toEqual(index.search(q));
			}),
			{ numRuns: 60 },
		);
	});

	it("keeps the mtime given with a note", () => {
		const index = vault();
		expect(index.mtimeOf("Garden.md")).toBe(100);
		expect(index.mtimeOf("Code.md")).toBeUndefined();
	});

	it("refuses data that is not a saved index, or of another version, with a message that says so", () => {
		const saved = vault().toJSON() as Record<string, unknown>;
		expect(() => NoteIndex.fromJSON(null)).toThrow(/not a saved note index/);
		expect(() => NoteIndex.fromJSON({ hello: 1 })).toThrow(/not a saved note index/);
		expect(() => NoteIndex.fromJSON({ ...saved, version: NOTE_INDEX_VERSION + 1 })).toThrow(new RegExp(`format version ${NOTE_INDEX_VERSION + 1}.*rebuild`));
		expect(() => NoteIndex.fromJSON({ ...saved, postings: [] })).toThrow(/rebuild/);
		const postings = (saved.postings as string[]).map(() => "zzzzzz");
		expect(() => NoteIndex.fromJSON({ ...saved, postings })).toThrow(/damaged/);
	});
});

describe("indexInSlices", () => {
	it("indexes every note and yields whenever a slice of work passes sliceMs", async () => {
		let clock = 0;
		const index = new NoteIndex();
		let yields = 0;
		const notes = Array.from({ length: 10 }, (_, i) => ({ id: `n${i}.md`, text: `note number ${i} about topic${i}` }));
		// A fake clock that ticks 4 ms a reading: every upsert "takes" 4 ms, so a slice holds three notes (12 ms).
		const report = await indexInSlices(index, notes, async () => { yields++; }, { sliceMs: 10, now: () => (clock += 4) });
		expect(report.notes).toBe(10);
		expect(index.size).toBe(10);
		expect(yields).toBe(3);
		expect(report.longestSliceMs).toBe(12);
		expect(index.search("topic7")[0]?.id).toBe("n7.md");
	});

	it("takes async sources and stops when cancelled", async () => {
		const index = new NoteIndex();
		async function* notes(): AsyncGenerator<{ id: string; text: string }> {
			for (let i = 0; i < 5; i++) yield { id: `n${i}.md`, text: `text ${i}` };
		}
		const report = await indexInSlices(index, notes(), () => Promise.resolve(), { cancelled: () => index.size >= 2 });
		expect(report.notes).toBe(2);
		expect(index.size).toBe(2);
	});
});
