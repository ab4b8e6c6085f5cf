import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { indexInSlices } from "../../src/context/indexInSlices";
import { NOTE_INDEX_VERSION, NoteIndex } from "../../src/context/NoteIndex";
import { textArb } from "../support/scriptTexts";

const noteArb = fc.record({ id: fc.constantFrom("a.md", "b.md", "Folder/c.md", "d.md", "日本/メモ.md"), text: fc.array(textArb, { maxLength: 12 }).map((p) => p.join("\n\n")) });
const mtimeArb = fc.option(fc.oneof(fc.integer({ min: 0, max: 2e12 }), fc.double({ noNaN: true, noDefaultInfinity: true })), { nil: undefined });
const queries = ["budget window", "世界 会話", "привет мир", "Zusammenfassung", "résumé", "the", "42", "conversations", "разговоры"];
const tick = (): Promise<void> => Promise.resolve();

describe("NoteIndex binary form", () => {
	it("toBinary → fromBinary (and loadInSlices) gives the same search results, passage texts, sizes and mtimes", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(fc.tuple(noteArb, mtimeArb), { maxLength: 6 }), fc.array(fc.constantFrom("a.md", "b.md", "d.md"), { maxLength: 2 }), async (notes, removed) => {
				const index = new NoteIndex();
				for (const [n, mtime] of notes) index.upsert(n.id, n.text, undefined, mtime);
				for (const id of removed) index.remove(id);
				const bytes = index.toBinary();
				const loaded = NoteIndex.fromBinary(bytes.slice().buffer);
				const sliced = await NoteIndex.loadInSlices(bytes, tick, { sliceMs: 0 });
				for (const other of [loaded, sliced]) {
					expect(other.size).toBe(index.size);
					expect(other.passageCount).toBe(index.passageCount);
					expect(other.termCount).toBe(index.termCount);
					expect(other.entries()).toEqual(index.entries());
					for (const q of queries) expect(other.search(q, { limit: 50 })).toEqual(index.search(q, { limit: 50 }));
				}
				expect(NoteIndex.fromJSON(JSON.parse(JSON.stringify(index.toJSON()))).search("budget window")).toEqual(index.search("budget window"));
			}),
			{ numRuns: 60 },
		);
	});

	it("refuses bytes that are not a saved index, of another version, or cut short, saying so", () => {
		const index = new NoteIndex();
		index.upsert("a.md", "# A\n\nSome words about gardens and compost.", undefined, 5);
		const bytes = index.toBinary();
		expect(() => NoteIndex.fromBinary(new Uint8Array([1, 2, 3]))).toThrow(/not a saved note index.*rebuild/);
		const other = bytes.slice();
		new DataView(other.buffer).setUint32(4, NOTE_INDEX_VERSION + 1, true);
		expect(() => NoteIndex.fromBinary(other)).toThrow(new RegExp(`format version ${NOTE_INDEX_VERSION + 1}.*rebuild`));
		expect(() => NoteIndex.fromBinary(bytes.slice(0, bytes.length - 5))).toThrow(/cut short.*rebuild/);
	});

	it("a save in slices that sees the index change starts again, so its bytes are one state of the index", async () => {
		const index = new NoteIndex();
		for (let i = 0; i < 40; i++) index.upsert(`n${i}.md`, `note ${i} about topic${i}`);
		let yields = 0;
		const bytes = await index.toBinaryInSlices(async () => {
			if (yields++ === 1) index.upsert("late.md", "a late note about lighthouses");
		}, { sliceMs: 0 });
		expect(yields).toBeGreaterThan(2);
		expect(NoteIndex.fromBinary(bytes).search("lighthouses")[0]?.id).toBe("late.md");
		expect(bytes).toEqual(index.toBinary());
	});
});

describe("NoteIndex memory", () => {
	it("removed notes leave no term entries behind", () => {
		fc.assert(
			fc.property(fc.array(noteArb, { maxLength: 5 }), (notes) => {
				const index = new NoteIndex();
				for (const n of notes) index.upsert(n.id, n.text);
				for (const n of notes) index.remove(n.id);
				expect(index.size).toBe(0);
				expect(index.termCount).toBe(0);
				expect(index.passageCount).toBe(0);
			}),
			{ numRuns: 60 },
		);
		const index = new NoteIndex();
		index.upsert("a.md", "shared words here");
		index.upsert("b.md", "shared words here");
		const before = index.termCount;
		index.upsert("b.md", "shared words and a rare zygomorphic term");
		expect(index.termCount).toBeGreaterThan(before);
		index.upsert("b.md", "shared words here");
		expect(index.termCount).toBe(before);
	});
});

describe("NoteIndex huge notes", () => {
	it("indexes a huge note in several slices and changes the index only at its last step", async () => {
		const huge = Array.from({ length: 1500 }, (_, i) => `## Part ${i}\n\nParagraph ${i} about the lighthouse keeper and the cobalt lamp room.`).join("\n\n");
		const index = new NoteIndex();
		index.upsert("small.md", "a small note about a lighthouse");
		let clock = 0;
		const seen: number[] = [];
		const report = await indexInSlices(index, [{ id: "huge.md", text: huge }], async () => {
			seen.push(index.search("lighthouse", { limit: 1000, perNote: 1000 }).filter((h) => h.id === "huge.md").length);
		}, { sliceMs: 1, now: () => (clock += 1) });
		expect(report.slices).toBeGreaterThan(2);
		// Between slices the huge note is either absent or whole, never half indexed.
		const whole = index.search("lighthouse", { limit: 1000, perNote: 1000 }).filter((h) => h.id === "huge.md").length;
		expect(whole).toBeGreaterThan(10);
		expect(seen.every((n) => n === 0 || n === whole)).toBe(true);
		expect(seen[0]).toBe(0);
	});

	it("finds a Russian or German word in another inflection (prefix terms)", () => {
		const index = new NoteIndex();
		index.upsert("bees.md", "# Пчёлы\n\nПчелиная матка отмечена жёлтой точкой.");
		index.upsert("backup.md", "# Backup\n\nDie Datensicherung behält vierzehn Sicherungsstände.");
		index.upsert("other.md", "# Other\n\nNothing about either topic.");
		expect(index.search("матки")[0]?.id).toBe("bees.md");
		expect(index.search("Sicherung")[0]?.id).toBe("backup.md");
	});
});
