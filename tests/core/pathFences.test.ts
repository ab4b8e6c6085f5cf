// The one path comparison every fence uses (src/core/pathFences.ts): names a case-insensitive or
// Windows file system treats as the same folder must meet, and names that only share a prefix must not.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fenceOf, isFencedPath, isWithinFolder, pathKey, segmentKey, type Fences } from "../../src/core/pathFences";

const FENCES: Fences = { configDir: ".obsidian", chatsFolder: "Discover/Chats", agentsFolder: "Discover/Agents", excluded: ["Private", "Secrets", "Work/Clients"] };

describe("pathKey", () => {
	it.each([
		["Straße/x.md", "STRASSE/x.md"],
		["ſecrets/x.md", "Secrets/x.md"],
		["Prıvate/x.md", "Private/x.md"],
		["\u212Aelvin/x.md", "Kelvin/x.md"], // the Kelvin sign
		["Cafe\u0301/x.md", "Caf\u00e9/x.md"], // NFD and NFC
		["Private./x.md", "Private/x.md"],
		["Private. . /x.md", "Private/x.md"],
		["Private /x.md", "private/x.md"],
		["./Private//x.md", "Private/x.md"],
		["/Private/x.md/", "Private/x.md"],
	])("%j and %j are the same path", (a, b) => {
		expect(pathKey(a)).toBe(pathKey(b));
	});

	it.each([
		["Privateer/x.md", "Private/x.md"],
		["Pri vate/x.md", "Private/x.md"],
		["Pri\u200bvate/x.md", "Private/x.md"],
		["Work/Clients2/x.md", "Work/Clients/x.md"],
	])("%j and %j stay different", (a, b) => {
		expect(pathKey(a)).not.toBe(pathKey(b));
	});

	it("folds `toLowerCase` alone leaves apart", () => {
		expect("ſ".toLowerCase()).not.toBe("s");
		expect("ı".toLowerCase()).not.toBe("i");
		expect(segmentKey("ſ")).toBe("s");
		expect(segmentKey("ı")).toBe("i");
		expect(segmentKey("\u212A")).toBe("k");
		expect(segmentKey("ß")).toBe(segmentKey("SS"));
	});

	it("is idempotent and does not depend on case or normalization form (property)", () => {
		const seg = fc.oneof(fc.constantFrom("Private", "ſecrets", "Prıvate", "Straße", "\u212Aey", "Café", "Cafe\u0301", "x. ", "a.md"), fc.string({ maxLength: 8 }));
		fc.assert(
			fc.property(fc.array(seg, { minLength: 1, maxLength: 4 }), (segs) => {
				const path = segs.join("/");
				const key = pathKey(path);
				expect(pathKey(key)).toBe(key);
				expect(pathKey(path.toUpperCase())).toBe(key);
				expect(pathKey(path.normalize("NFD"))).toBe(key);
			}),
			{ numRuns: 1000 },
		);
	});
});

describe("isWithinFolder and isFencedPath", () => {
	it("puts the issue's attack paths inside the excluded folders", () => {
		expect(isWithinFolder("Prıvate/x.md", "Private")).toBe(true);
		expect(isWithinFolder("ſecrets/x.md", "Secrets")).toBe(true);
		expect(isFencedPath("Prıvate/x.md", FENCES)).toBe(true);
		expect(isFencedPath("ſecrets/x.md", FENCES)).toBe(true);
		expect(fenceOf("PRIVATE./Salary.md", FENCES)).toBe("excluded");
		expect(fenceOf("work/clients /a.md", FENCES)).toBe("excluded");
	});

	it("names each fence", () => {
		expect(fenceOf(".Obsidian/plugins/x/main.js", FENCES)).toBe("config");
		expect(fenceOf("discover/chats/2026.md", FENCES)).toBe("chats");
		expect(fenceOf("Discover/Agents/Default.md", FENCES)).toBe("agents");
		expect(fenceOf("DISCOVER/AGENTS./Default.md", FENCES)).toBe("agents");
		expect(fenceOf("Discover/Agents", FENCES)).toBe("agents");
		expect(fenceOf("Discover/Exports/x.md", FENCES)).toBeUndefined();
		expect(fenceOf("Discover/Agentsmith.md", FENCES)).toBeUndefined();
		expect(fenceOf("Notes/Private/x.md", FENCES)).toBeUndefined();
	});

	it("an unset folder fences nothing; an empty folder for isWithinFolder is the whole vault", () => {
		const none: Fences = { configDir: "", chatsFolder: "", agentsFolder: "/", excluded: ["", "."] };
		expect(isFencedPath("Notes/x.md", none)).toBe(false);
		expect(isWithinFolder("Notes/x.md", "")).toBe(true);
	});
});
