// Export file names: valid and visible on Windows, macOS, Linux, iOS and Android, whatever the title.
import fc from "fast-check";
import { normalizePath } from "obsidian";
import { describe, expect, it } from "vitest";
import { asObsidianApp, createTestApp } from "../obsidian/harness";
import { MAX_NAME_BYTES, MAX_NAME_LENGTH, noteFileName, writeExportNote } from "../../src/ui/history/exportNote";

const DEVICE_NAMES = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;

/** Why `name` (saved as `name.md`) is not a valid, visible file name everywhere; [] when it is. */
function problems(name: string): string[] {
	const found: string[] = [];
	if (name === "") found.push("empty");
	if (/[\\/:*?"<>|#^[\]]/.test(name)) found.push("forbidden character");
	for (const ch of name) {
		const c = ch.codePointAt(0) ?? 0;
		if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) found.push(`control U+${c.toString(16)}`);
		if ([0x61c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff].includes(c)) found.push(`invisible U+${c.toString(16)}`);
	}
	if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(name)) found.push("lone surrogate");
	if (name.startsWith(".")) found.push("hidden");
	if (/^\s|[\s.]$/.test(name)) found.push("space or dot at an end");
	if (DEVICE_NAMES.test(`${name}.md`.split(".")[0]?.trimEnd() ?? "")) found.push("Windows device name");
	if (name.length > MAX_NAME_LENGTH) found.push("too long");
	if (new TextEncoder().encode(name).length > MAX_NAME_BYTES) found.push("too many bytes");
	if (normalizePath(name) !== name) found.push("changed by normalizePath");
	if (name.normalize("NFC") !== name) found.push("not NFC");
	return found;
}

const graphemes = (text: string): string[] => Array.from(new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text), (s) => s.segment);

describe("export file names", () => {
	it("hostile titles become valid, visible names", () => {
		const cases: [string, string][] = [
			["CON", "CON_"],
			["nul", "nul_"],
			["com1", "com1_"],
			["LPT9.txt", "LPT9_.txt"],
			["con.txt", "con_.txt"],
			["Con .x", "Con_ .x"],
			[".obsidian", "obsidian"],
			["..", "Chat"],
			["Notes...", "Notes"],
			["Trailing space   ", "Trailing space"],
			["a\u0000b\u0007c\u001bd", "a b c d"],
			["invoice\u202Egnp.exe", "invoice gnp.exe"],
			["Plan\n---\ntitle: x", "Plan --- title x"],
			["a/b\\c:d*e?f\"g<h>i|j#k^l[m]n", "a b c d e f g h i j k l m n"],
			["\ud800lone", "lone"],
			["", "Chat"],
		];
		for (const [title, name] of cases) {
			expect(noteFileName(title), JSON.stringify(title)).toBe(name);
			expect(problems(noteFileName(title))).toEqual([]);
		}
	});

	it("cuts long titles between characters: never inside an emoji, a flag or an accent", () => {
		for (const unit of ["🧑‍🤝‍🧑", "🇫🇷", "e\u0301", "👍🏽", "語", "a"]) {
			const title = unit.repeat(150);
			const name = noteFileName(title);
			expect(problems(name)).toEqual([]);
			const parts = graphemes(name);
			expect(parts.every((g) => g === unit.normalize("NFC"))).toBe(true);
			expect(parts.length).toBeGreaterThan(0);
		}
	});

	it("property: any title gives a non-empty, valid, visible name within the limits", () => {
		const piece = fc.oneof(
			fc.string({ unit: "binary", maxLength: 30 }),
			fc.constantFrom("CON", "con.", "AUX ", "COM¹", ".", "..", " ", "\u202e", "\ud83d", "\ude00", "🧑‍🤝‍🧑", "#", "[", "\n", "\u00a0", "\u3000", "e\u0301"),
		);
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 12 }).map((p) => p.join("")), (title) => {
				expect(problems(noteFileName(title))).toEqual([]);
			}),
			{ numRuns: 500 },
		);
	});

	it("writes the note under the safe name, numbering duplicates", async () => {
		const app = asObsidianApp(await createTestApp());
		const first = await writeExportNote(app, "Exports", ".hidden\nCON", "a");
		const second = await writeExportNote(app, "Exports", ".hidden\nCON", "b");
		expect([first.path, second.path]).toEqual(["Exports/hidden CON.md", "Exports/hidden CON 2.md"]);
	});
});
