// NodeVault.refresh: the folder's index brought up to date with the disk by comparing stamps, so
// a refresh of an unchanged vault reads no note again, and a changed, new or gone note is handled.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeVault } from "../../scripts/nodeVault";

let dir: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "discover-refresh-"));
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

describe("NodeVault.refresh", () => {
	it("re-indexes a changed note, adds a new one, removes a gone one, and only stats the rest", async () => {
		await mkdir(join(dir, "A"));
		await writeFile(join(dir, "A", "One.md"), "apples\n");
		await writeFile(join(dir, "Two.md"), "bananas\n");
		await writeFile(join(dir, "Three.md"), "cherries\n");
		const vault = await NodeVault.open(dir);
		expect(await vault.refresh()).toEqual({ added: 0, changed: 0, removed: 0, unchanged: 3 });

		// Same size, new text, saved the way many editors save: a new file renamed over the old one.
		await writeFile(join(dir, "A", ".One.md.tmp"), "quinces\n");
		await rename(join(dir, "A", ".One.md.tmp"), join(dir, "A", "One.md"));
		await unlink(join(dir, "Two.md"));
		await writeFile(join(dir, "Four.md"), "dates #fruit\n");

		expect(await vault.refresh()).toEqual({ added: 1, changed: 1, removed: 1, unchanged: 1 });
		expect(vault.search("quinces", 5).map((h) => h.id)).toEqual(["A/One.md"]);
		expect(vault.search("apples", 5)).toEqual([]);
		expect(vault.search("bananas", 5)).toEqual([]);
		expect(vault.search("dates", 5).map((h) => h.id)).toEqual(["Four.md"]);
		expect(vault.listNotes().map((n) => n.path).sort()).toEqual(["A/One.md", "Four.md", "Three.md"]);
		expect(vault.listNotes().find((n) => n.path === "Four.md")?.tags).toEqual(["fruit"]);
	});

	it("an unchanged folder of many notes is refreshed without reading any note again (bench/vaultRefresh.ts times 2,000)", async () => {
		for (let f = 0; f < 10; f++) {
			await mkdir(join(dir, `Folder ${f}`));
			await Promise.all(Array.from({ length: 50 }, (_, i) => writeFile(join(dir, `Folder ${f}`, `Note ${i}.md`), `Note ${f}-${i} about topic ${i % 7}.\n`)));
		}
		const vault = await NodeVault.open(dir);
		expect(vault.listNotes()).toHaveLength(500);
		expect(await vault.refresh()).toEqual({ added: 0, changed: 0, removed: 0, unchanged: 500 });
		await writeFile(join(dir, "Folder 3", "Note 7.md"), "Rewritten: a note about kumquats.\n");
		expect(await vault.refresh()).toEqual({ added: 0, changed: 1, removed: 0, unchanged: 499 });
		expect(vault.search("kumquats", 3).map((h) => h.id)).toEqual(["Folder 3/Note 7.md"]);
	}, 120_000);

	it("an in-place edit of the same size that puts the old modification time back is still seen", async () => {
		const note = join(dir, "One.md");
		await writeFile(note, "apples\n");
		const vault = await NodeVault.open(dir);
		// `touch -r` copies the times to the nanosecond (Node's utimes rounds them), as `cp -p` keeps them.
		execFileSync("touch", ["-r", note, join(dir, ".times")]);
		await sleep(20); // Let the clock move past the first write's change time.
		await writeFile(note, "quince\n");
		execFileSync("touch", ["-r", join(dir, ".times"), note]);
		expect((await stat(note)).mtimeMs).toBe((await stat(join(dir, ".times"))).mtimeMs);
		expect(await vault.refresh()).toEqual({ added: 0, changed: 1, removed: 0, unchanged: 0 });
		expect(vault.search("quince", 5).map((h) => h.id)).toEqual(["One.md"]);
	});

	it("concurrent refreshes run one after another and agree", async () => {
		await writeFile(join(dir, "One.md"), "apples\n");
		const vault = await NodeVault.open(dir);
		await writeFile(join(dir, "Two.md"), "bananas\n");
		const [first, second] = await Promise.all([vault.refresh(), vault.refresh()]);
		expect(first).toEqual({ added: 1, changed: 0, removed: 0, unchanged: 1 });
		expect(second).toEqual({ added: 0, changed: 0, removed: 0, unchanged: 2 });
	});

	it("skips the skip folders with case folded, as the tools' path checks do", async () => {
		await mkdir(join(dir, "private"));
		await writeFile(join(dir, "private", "Secret.md"), "hidden\n");
		await writeFile(join(dir, "Open.md"), "open\n");
		const vault = await NodeVault.open(dir, { skipFolders: ["Private/"] });
		expect(vault.listNotes().map((n) => n.path)).toEqual(["Open.md"]);
		await writeFile(join(dir, "private", "More.md"), "hidden too\n");
		expect(await vault.refresh()).toEqual({ added: 0, changed: 0, removed: 0, unchanged: 1 });
	});
});
