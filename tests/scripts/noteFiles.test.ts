// The --note files as sources at each message: read again when they change on disk, left out with
// a line while they are missing, sent again when they come back; a note unreadable at start is a
// clear error naming it.
import { mkdtemp, rm, unlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NoteFiles } from "../../scripts/noteFiles";

let dir: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "discover-notes-"));
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

describe("--note files", () => {
	it("are sent as they are on disk at each message, with a line when one changed", async () => {
		const hours = join(dir, "Hours.md");
		const prices = join(dir, "Prices.md");
		await writeFile(hours, "Opens at nine.\n");
		await writeFile(prices, "Coffee: three euros.\n");
		const lines: string[] = [];
		const notes = await NoteFiles.open([hours, prices], (l) => void lines.push(l));
		expect(await notes.sources()).toEqual([
			{ id: hours, name: "Hours.md", text: "Opens at nine.\n", kind: "note" },
			{ id: prices, name: "Prices.md", text: "Coffee: three euros.\n", kind: "note" },
		]);
		expect(lines).toEqual([]);

		await writeFile(hours, "Opens at ten.\n"); // Same size: the stamp's mtime and inode tell.
		const later = new Date(Date.now() + 5_000);
		await utimes(hours, later, later);
		expect((await notes.sources()).map((s) => s.text)).toEqual(["Opens at ten.\n", "Coffee: three euros.\n"]);
		expect(lines).toEqual([`(--note ${hours} changed on disk: sending it as it is now)`]);
	});

	it("a deleted note is left out with one line, the others still sent; when it comes back it is sent again", async () => {
		const hours = join(dir, "Hours.md");
		const prices = join(dir, "Prices.md");
		await writeFile(hours, "Opens at nine.\n");
		await writeFile(prices, "Coffee: three euros.\n");
		const lines: string[] = [];
		const notes = await NoteFiles.open([hours, prices], (l) => void lines.push(l));
		await unlink(hours);
		expect((await notes.sources()).map((s) => s.name)).toEqual(["Prices.md"]);
		expect((await notes.sources()).map((s) => s.name)).toEqual(["Prices.md"]);
		expect(lines).toEqual([`(--note ${hours}: it was deleted or moved; messages are sent without it until it is back)`]);

		await writeFile(hours, "Opens at eight now.\n");
		expect((await notes.sources()).map((s) => s.text)).toEqual(["Opens at eight now.\n", "Coffee: three euros.\n"]);
		expect(lines.at(-1)).toBe(`(--note ${hours} is back: it is sent again, as it is now)`);
	});

	it("a note that cannot be read at start is an error naming it", async () => {
		const missing = join(dir, "Nowhere.md");
		await expect(NoteFiles.open([missing], () => undefined)).rejects.toThrow(`--note ${missing}: there is no such file.`);
	});
});
