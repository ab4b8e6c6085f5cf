import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fenceOf, isFencedPath, isReadFenced, isWithinFolder, pathKey, type Fences } from "../../src/core/pathFences";

const FENCES: Fences = { configDir: ".obsidian", chatsFolder: "Discover/Chats", agentsFolder: "Discover/Agents", excluded: ["Private", "Secrets", "Work/Clients"] };

describe("pathKey: one comparison for every fence", () => {
	it.each([
		["Prıvate/x.md", "Private/x.md", "dotless ı (NTFS upper-cases it to I)"],
		["ſecrets/x.md", "Secrets/x.md", "long s"],
		["Straße/x.md", "STRASSE/x.md", "sharp s folds to ss"],
		["\u212Aelvin/x.md", "Kelvin/x.md", "the Kelvin sign"],
		["Cafe\u0301/x.md", "Café/x.md", "NFD and NFC"],
		["Private. /x.md", "private/x.md", "trailing dots and spaces"],
		["Private.../x.md ", "PRIVATE/x.md", "several trailing dots"],
		["a//b/./c.md", "a/b/c.md", "empty and . segments"],
	])("%j meets %j (%s)", (a, b) => {
		expect(pathKey(a)).toBe(pathKey(b));
	});

	it("keeps different names apart", () => {
		expect(pathKey("Privateer/x.md")).not.toBe(pathKey("Private/x.md"));
		expect(pathKey("Chats2/x.md")).not.toBe(pathKey("Chats/x.md"));
		expect(isWithinFolder("Privateer/x.md", "Private")).toBe(false);
	});

	it("fences the variants `toLowerCase` let through", () => {
		// Both passed the old tools' check (toLowerCase leaves ı and ſ as they are).
		expect("Prıvate".toLowerCase()).not.toBe("private");
		expect(fenceOf("Prıvate/x.md", FENCES)).toBe("excluded");
		expect(fenceOf("ſecrets/x.md", FENCES)).toBe("excluded");
		expect(fenceOf("discover/agents./Default.md", FENCES)).toBe("agents");
		expect(fenceOf("DISCOVER/ＣHATS/x.jsonl", FENCES)).toBeUndefined(); // a full-width letter is another name
		expect(fenceOf("Discover/Chats/2026.jsonl", FENCES)).toBe("chats");
		expect(fenceOf(".OBSIDIAN/plugins/x/data.json", FENCES)).toBe("config");
		expect(fenceOf("work/clients /acme.md", FENCES)).toBe("excluded");
		expect(fenceOf("Notes/Plan.md", FENCES)).toBeUndefined();
	});

	it("reads may reach the agents folder, writes may not", () => {
		expect(isFencedPath("Discover/Agents/Default.md", FENCES)).toBe(true);
		expect(isReadFenced("Discover/Agents/Default.md", FENCES)).toBe(false);
		expect(isReadFenced("Private/Salary.md", FENCES)).toBe(true);
	});

	it("an unset folder fences nothing; a folder naming nothing contains everything", () => {
		expect(isFencedPath("Notes/x.md", { configDir: "", chatsFolder: "/", agentsFolder: "", excluded: ["", "/"] })).toBe(false);
		expect(isWithinFolder("Notes/x.md", "")).toBe(true);
		expect(isWithinFolder("Notes/x.md", "/")).toBe(true);
	});

	it("a path built from a fenced folder by any case, Unicode or trailing-dot variant stays fenced", () => {
		const variant = (segment: string): fc.Arbitrary<string> =>
			fc
				.tuple(
					fc.array(fc.boolean(), { minLength: segment.length, maxLength: segment.length }),
					fc.constantFrom("", ".", " ", "..", ". "),
					fc.boolean(),
				)
				.map(([upper, tail, nfd]) => {
					let s = [...segment].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join("");
					s = s.replace(/s/g, (c) => (upper[0] ? "ſ" : c)).replace(/i/g, (c) => (upper[1] ? "ı" : c)).replace(/k/gi, (c) => (upper[2] ? "\u212A" : c));
					return (nfd ? s.normalize("NFD") : s) + tail;
				});
		const folder = fc.constantFrom(...FENCES.excluded, FENCES.chatsFolder, FENCES.agentsFolder);
		const arb = folder.chain((f) => fc.tuple(fc.tuple(...f.split("/").map(variant)), fc.array(fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !s.includes("/")), { maxLength: 3 })));
		fc.assert(
			fc.property(arb, ([segments, rest]) => {
				expect(isFencedPath([...segments, ...rest, "note.md"].join("/"), FENCES)).toBe(true);
			}),
		);
	});
});
