import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { notePath, safePath, ToolError } from "../../src/tools/paths";
import type { ToolScope } from "../../src/tools/types";

const scope: ToolScope = { chatsFolder: () => "Discover/Chats", excludedFolders: () => ["Private", "Work/Secret"] };
const check = (p: unknown): string => safePath(p, ".obsidian", scope);

describe("tool path safety", () => {
	it("normalizes plain vault paths", () => {
		expect(check("Projects//Plan.md")).toBe("Projects/Plan.md");
		expect(check("./Projects/./Plan.md")).toBe("Projects/Plan.md");
		expect(check("Notes/Café.md")).toBe("Notes/Café.md".normalize("NFC"));
	});

	it.each([
		["../outside.md", "leaves the vault"],
		["Projects/../../x.md", "leaves the vault"],
		["/etc/passwd", "absolute"],
		["C:/Users/x.md", "absolute"],
		["~/x.md", "absolute"],
		["file:///etc/passwd", "absolute"],
		["Projects\\..\\..\\x.md", "backslashes"],
		[".obsidian/plugins/discover/data.json", "hidden"],
		["Notes/.hidden.md", "hidden"],
		["Discover/Chats/2026.jsonl", "chats folder"],
		["discover/chats./x.md", "chats folder"],
		["Private/diary.md", "excluded"],
		["work/secret/x.md", "excluded"],
		["a\u0000b.md", "control characters"],
		["", "vault-relative"],
		[42, "vault-relative"],
	])("refuses %j (%s)", (path, why) => {
		expect(() => check(path)).toThrow(ToolError);
		expect(() => check(path)).toThrow(why);
	});

	it("refuses a config folder that is not hidden, by name and in any case", () => {
		expect(() => safePath("Config/app.json", "config", scope)).toThrow("settings folder");
		expect(() => safePath("CONFIG./x.md", "config", scope)).toThrow("settings folder");
	});

	it("keeps folders that only share a prefix with a forbidden one", () => {
		expect(check("Privateer/x.md")).toBe("Privateer/x.md");
		expect(check("Discover/Chatsworth.md")).toBe("Discover/Chatsworth.md");
	});

	it("no generated path escapes the vault or reaches the config folder, the chats folder or an excluded folder", () => {
		const segment = fc.oneof(
			fc.constantFrom("..", ".", "", ".obsidian", ".OBSIDIAN", ".obsidian.", "Discover", "discover", "Chats", "chats ", "Private", "private.", "Work", "Secret", "notes", "a.md", "~", "C:", "\\..", "%2e%2e", "..\u200b"),
			fc.string({ maxLength: 6 }),
		);
		const pathArb = fc.tuple(fc.constantFrom("", "/", "./", "\\"), fc.array(segment, { maxLength: 6 })).map(([lead, segs]) => lead + segs.join(fc.sample(fc.constantFrom("/", "//"), 1)[0] ?? "/"));
		fc.assert(
			fc.property(pathArb, (raw) => {
				let path: string;
				try {
					path = check(raw);
				} catch (err) {
					return err instanceof ToolError;
				}
				const segs = path.split("/");
				const fold = (s: string): string => s.replace(/[. ]+$/, "").toLowerCase().trim();
				expect(segs.every((s) => s !== "" && s !== "." && s.trim() !== "..")).toBe(true);
				expect(path.startsWith("/") || path.includes("\\") || /^[a-z]:/i.test(path)).toBe(false);
				expect(fold(segs[0] ?? "")).not.toBe(".obsidian");
				expect(segs.some((s) => s.trim().startsWith("."))).toBe(false);
				expect(segs.length >= 2 && fold(segs[0] ?? "") === "discover" && fold(segs[1] ?? "") === "chats").toBe(false);
				expect(fold(segs[0] ?? "") === "private").toBe(false);
				expect(segs.length >= 2 && fold(segs[0] ?? "") === "work" && fold(segs[1] ?? "") === "secret").toBe(false);
				return true;
			}),
			{ numRuns: 2000 },
		);
	});

	it("adds .md to a note path without one and refuses other file types", () => {
		expect(notePath("Projects/Plan")).toBe("Projects/Plan.md");
		expect(notePath("Projects/Plan.MD")).toBe("Projects/Plan.MD");
		expect(notePath("Meeting 2024.05")).toBe("Meeting 2024.05.md");
		expect(() => notePath("image.png")).toThrow("not a Markdown note");
	});
});
