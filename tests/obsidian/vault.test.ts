import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { normalizePath, TFile } from "obsidian";
import { App } from "./app";
import { InMemoryAdapter } from "./adapter";
import { asObsidianApp } from "./harness";

describe("normalizePath", () => {
	it.each([
		["a//b\\c/", "a/b/c"],
		["/leading/and/trailing/", "leading/and/trailing"],
		["", "/"],
		["///", "/"],
		["a\u00A0b", "a b"],
		["e\u0301", "\u00e9"],
	])("%j → %j", (input, expected) => {
		expect(normalizePath(input)).toBe(expected);
	});

	it("is idempotent and never leaves doubled or edge slashes", () => {
		fc.assert(
			fc.property(fc.string(), (s) => {
				const once = normalizePath(s);
				expect(normalizePath(once)).toBe(once);
				expect(once).not.toMatch(/\/\/|\\/);
				if (once !== "/") expect(once).not.toMatch(/^\/|\/$/);
			}),
		);
	});
});

describe("InMemoryAdapter", () => {
	it("writes, appends, reads, lists full paths, renames and removes", async () => {
		const a = new InMemoryAdapter();
		await a.mkdir("x/y");
		await a.write("x/y/f.jsonl", "1\n");
		await a.append("x/y/f.jsonl", "2\n");
		await a.append("x/y/g.jsonl", "new\n");
		expect(await a.read("x/y/f.jsonl")).toBe("1\n2\n");
		expect(await a.list("x")).toEqual({ files: [], folders: ["x/y"] });
		expect(await a.list("x/y")).toEqual({ files: ["x/y/f.jsonl", "x/y/g.jsonl"], folders: [] });
		await a.rename("x/y/g.jsonl", "x/h.jsonl");
		expect(await a.exists("x/y/g.jsonl")).toBe(false);
		expect(await a.read("x/h.jsonl")).toBe("new\n");
		await a.remove("x/h.jsonl");
		expect(await a.exists("x/h.jsonl")).toBe(false);
		expect((await a.stat("x/y/f.jsonl"))?.size).toBe(4);
	});

	it("rejects like the desktop adapter: missing file, missing parent, missing folder", async () => {
		const a = new InMemoryAdapter();
		await expect(a.read("nope.md")).rejects.toThrow(/ENOENT/);
		await expect(a.write("no/parent.md", "x")).rejects.toThrow(/ENOENT/);
		await expect(a.list("no")).rejects.toThrow(/ENOENT/);
		await expect(a.remove("nope.md")).rejects.toThrow(/ENOENT/);
	});

	it("mkdir creates parents and is idempotent; rmdir needs recursive for content", async () => {
		const a = new InMemoryAdapter();
		await a.mkdir("a/b/c");
		await a.mkdir("a/b/c");
		expect(a.kind("a/b")).toBe("folder");
		await a.write("a/b/c/f", "x");
		await expect(a.rmdir("a", false)).rejects.toThrow(/ENOTEMPTY/);
		await a.rmdir("a", true);
		expect(a.allPaths()).toEqual([]);
	});
});

describe("Vault", () => {
	it("indexes created files and folders, fires events, renames", async () => {
		const app = new App();
		const events: string[] = [];
		const vault = asObsidianApp(app).vault;
		vault.on("create", (f) => events.push(`create ${f.path}`));
		vault.on("rename", (f, old) => events.push(`rename ${old} ${f.path}`));
		await app.vault.createFolder("Notes/Sub");
		const file = await app.vault.create("Notes/Sub/A note.md", "# A");
		expect(file).toBeInstanceOf(TFile);
		expect([file.basename, file.extension, file.parent?.path]).toEqual(["A note", "md", "Notes/Sub"]);
		expect(await app.vault.read(file)).toBe("# A");
		await expect(app.vault.create("Missing/x.md", "")).rejects.toThrow(/Folder does not exist/);
		await app.vault.rename(app.vault.getFolderByPath("Notes/Sub")!, "Notes/Moved");
		expect(file.path).toBe("Notes/Moved/A note.md");
		expect(await app.vault.adapter.read("Notes/Moved/A note.md")).toBe("# A");
		expect(app.vault.getMarkdownFiles().map((f) => f.path)).toEqual(["Notes/Moved/A note.md"]);
		expect(events).toEqual(["create Notes", "create Notes/Sub", "create Notes/Sub/A note.md", "rename Notes/Sub Notes/Moved"]);
	});
});

describe("InMemoryAdapter bytes", () => {
	it("reports sizes in UTF-8 bytes and keeps bytes that are not UTF-8 exactly, as the desktop adapter does", async () => {
		const adapter = new InMemoryAdapter();
		await adapter.write("a.md", "é中😀");
		expect((await adapter.stat("a.md"))?.size).toBe(2 + 3 + 4);
		await adapter.append("a.md", "é");
		expect((await adapter.stat("a.md"))?.size).toBe(11);
		const bytes = new Uint8Array([0x61, 0xe9, 0x62, 0xff]);
		await adapter.writeBinary("b.bin", bytes.buffer.slice(0));
		expect((await adapter.stat("b.bin"))?.size).toBe(4);
		expect(await adapter.read("b.bin")).toBe("a\uFFFDb\uFFFD");
		expect([...new Uint8Array(await adapter.readBinary("b.bin"))]).toEqual([0x61, 0xe9, 0x62, 0xff]);
		await adapter.append("b.bin", "c");
		expect([...new Uint8Array(await adapter.readBinary("b.bin"))]).toEqual([0x61, 0xe9, 0x62, 0xff, 0x63]);
	});
});
