// The vault index without texts (keepText: false) holds no note's text after it is indexed. A word of
// 13 characters or more cut from a note is, in V8, a view of the note's whole text: kept in a table
// or a cache, it keeps that text alive. The terms analyzer's word cache kept such words, so every
// note with a long accented word stayed in memory (a 100,000-note vault's texts are 400 MB). The
// heap is read after a full GC, so this runs in its own Node process.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("the vault index keeps no note text it was not asked to keep", () => {
	it("after indexing 40 notes of 512 KB, each with its own long accented words and heading, the index holds under a fifth of their text", () => {
		const out = execFileSync(process.execPath, ["--import", "tsx", "tests/support/indexRetentionProbe.ts"], { cwd: root, encoding: "utf8", timeout: 120_000 });
		const r = JSON.parse(out.trim().split("\n").pop() ?? "{}") as { held: number; textBytes: number; notes: number; found: string[] };
		expect(r.notes).toBe(40);
		expect(r.found).toEqual(["Notes/n7.md"]);
		expect(r.textBytes).toBeGreaterThan(20_000_000);
		// Before the fix it held 22.6 MB of the 20.5 MB of text (every note); after, about 2 MB.
		expect(r.held).toBeLessThan(r.textBytes / 5);
	});
});
