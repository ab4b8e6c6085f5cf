import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ByteWriter, CHUNK_BYTES } from "../../src/context/binaryCodec";
import { NOTE_INDEX_VERSION, NoteIndex } from "../../src/context/NoteIndex";
import { textArb } from "../support/scriptTexts";
import { V4_NOTES, V4_REMOVED } from "../fixtures/noteIndex/notes";
import { INDEX_QUERIES, sameAnswers } from "../support/indexAnswers";

const ids = ["a.md", "b.md", "Folder/c.md", "d.md", "日本/メモ.md", "e.md"] as const;
const noteArb = fc.record({ id: fc.constantFrom(...ids), text: fc.array(textArb, { maxLength: 8 }).map((p) => p.join("\n\n")) });
const opArb = fc.oneof(noteArb.map((n) => ({ upsert: n })), fc.constantFrom(...ids).map((id) => ({ remove: id })));
const tick = (): Promise<void> => Promise.resolve();
const version = (bytes: Uint8Array): number => new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true);

describe("NoteIndex format 5: postings decoded when first used", () => {
	it("a loaded index answers every query, takes upserts and removals, and saves again exactly like the index it was saved from", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(noteArb, { maxLength: 6 }), fc.array(fc.constantFrom(...ids), { maxLength: 2 }), fc.array(opArb, { maxLength: 5 }), fc.boolean(), async (notes, removed, later, sliced) => {
				const built = new NoteIndex();
				for (const n of notes) built.upsert(n.id, n.text);
				for (const id of removed) built.remove(id);
				const bytes = built.toBinary();
				expect(version(bytes)).toBe(NOTE_INDEX_VERSION);
				const loaded = sliced ? await NoteIndex.loadInSlices(bytes, tick, { sliceMs: 0 }) : NoteIndex.fromBinary(bytes);
				// Nothing is decoded by the load itself.
				expect(loaded.undecodedTerms).toBe(built.termCount);
				// A save before any query reads the lists from the bytes, and gives the same bytes.
				expect(loaded.toBinary()).toEqual(bytes);
				sameAnswers(loaded, built);
				for (const op of later) {
					for (const index of [built, loaded]) {
						if ("upsert" in op) index.upsert(op.upsert.id, op.upsert.text);
						else index.remove(op.remove);
					}
				}
				sameAnswers(loaded, built);
				sameAnswers(NoteIndex.fromBinary(loaded.toBinary()), built);
			}),
			{ numRuns: 30 },
		);
	}, 60_000);

	it("a change to a loaded note before any query removes exactly its postings", () => {
		const built = new NoteIndex();
		for (const n of V4_NOTES) built.upsert(n.id, n.text, undefined, n.mtime);
		const loaded = NoteIndex.fromBinary(built.toBinary());
		for (const index of [built, loaded]) {
			index.upsert("Budget.md", "# Budget\n\nOnly lighthouses now.");
			index.remove("Garden/Compost.md");
		}
		expect(loaded.search("compost")).toEqual([]);
		expect(loaded.search("budget window")).toEqual(built.search("budget window"));
		sameAnswers(loaded, built);
	});

	it("an index saved in format 4 still loads, answers like the index built from the same notes, and saves in format 5", async () => {
		const v4 = new Uint8Array(readFileSync(join(import.meta.dirname, "../fixtures/noteIndex/v4.bin")));
		expect(version(v4)).toBe(4);
		const built = new NoteIndex();
		for (const n of V4_NOTES) built.upsert(n.id, n.text, undefined, n.mtime);
		built.remove(V4_REMOVED);
		const loaded = await NoteIndex.loadInSlices(v4, tick, { sliceMs: 0 });
		expect(loaded.loadedVersion).toBe(4);
		sameAnswers(loaded, built);
		expect(loaded.search("compost heap")[0]?.text).toContain("Turn the compost heap");
		const again = loaded.toBinary();
		expect(version(again)).toBe(NOTE_INDEX_VERSION);
		sameAnswers(NoteIndex.fromBinary(again), built);
		// Re-indexing after the old load (term ids derived from the postings) still works.
		expect(loaded.search("conversations trimmed")[0]?.id).toBe("Budget.md");
		loaded.upsert("Budget.md", "nothing about money");
		expect(loaded.search("conversations trimmed").map((h) => h.id)).not.toContain("Budget.md");
	});

	it("damaged bytes either refuse to load, saying to rebuild, or load and never throw on a query or a change", () => {
		const built = new NoteIndex();
		for (const n of V4_NOTES) built.upsert(n.id, n.text, undefined, n.mtime);
		const bytes = built.toBinary();
		fc.assert(
			fc.property(fc.array(fc.tuple(fc.nat({ max: bytes.length - 1 }), fc.nat({ max: 255 })), { minLength: 1, maxLength: 6 }), (flips) => {
				const damaged = bytes.slice();
				for (const [at, v] of flips) damaged[at] = v;
				let loaded: NoteIndex;
				try {
					loaded = NoteIndex.fromBinary(damaged);
				} catch (err) {
					expect((err as Error).message).toMatch(/rebuild/);
					return;
				}
				for (const q of INDEX_QUERIES) loaded.search(q, { limit: 20 });
				for (const n of V4_NOTES) loaded.upsert(n.id, `${n.text} again`);
				for (const { id } of loaded.entries()) loaded.remove(id);
				expect(loaded.size).toBe(0);
				expect(loaded.passageCount).toBe(0);
			}),
			{ numRuns: 300 },
		);
	}, 60_000);

	it("a synced index whose notes' term ids are malformed or name terms it does not have is refused, saying to rebuild", () => {
		const built = new NoteIndex();
		for (const n of V4_NOTES) built.upsert(n.id, n.text, undefined, n.mtime);
		const bytes = built.toBinary();
		const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
		const stringsEnd = 32 + view.getUint32(8, true) + view.getUint32(12, true);
		const termIdsEnd = stringsEnd + view.getUint32(16, true);
		expect(termIdsEnd - stringsEnd).toBeGreaterThan(8);
		// A varint that never ends within five bytes: an id of 2^35 and more.
		const endless = bytes.slice();
		endless.fill(0xff, stringsEnd, stringsEnd + 6);
		expect(() => NoteIndex.fromBinary(endless)).toThrow(/rebuild/);
		// A well-formed id far past the last term: it would alias another term's slot.
		const past = bytes.slice();
		past.set([0xff, 0xff, 0x7f], stringsEnd);
		expect(() => NoteIndex.fromBinary(past)).toThrow(/rebuild/);
	});

	it("the byte writer keeps order when whole chunks and varints are mixed past a chunk's size", () => {
		const w = new ByteWriter();
		const expected = new Uint8Array(3 * CHUNK_BYTES + 400);
		let n = 0;
		for (let i = 0; n < 3 * CHUNK_BYTES; i++) {
			if (i % 7 === 0) {
				const chunk = Uint8Array.from({ length: 1 + (i % 300) }, (_, k) => (i + k) % 128);
				w.push(chunk);
				expected.set(chunk, n);
				n += chunk.length;
			} else {
				w.varint(i % 128);
				expected[n++] = i % 128;
			}
		}
		expect(w.length).toBe(n);
		const out = new Uint8Array(w.length);
		let o = 0;
		for (const c of w.all()) {
			out.set(c, o);
			o += c.length;
		}
		expect(o).toBe(n);
		let same = true;
		for (let i = 0; i < n; i++) if (out[i] !== expected[i]) same = false;
		expect(same).toBe(true);
	});
});
