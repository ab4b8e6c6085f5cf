// The runtime side of conformance.ts that needs no DOM: every member of an Obsidian class that src/
// uses is one the type check covers (so the runtime cannot drift where the plugin depends on it).
// It lives with the other checker-based guards so that it reads the type-checked program of src/
// they share (srcProgram.ts) rather than building its own for one test.
import { describe, expect, it } from "vitest";
import { CHECKED_APART, COVERED, INHERITED_BY, WHOLE } from "../obsidian/conformance";
import { obsidianUses } from "./obsidianUsage";

/** DOM and JavaScript globals obsidian.d.ts augments: the runtime's dom.ts installs them. */
const GLOBALS = new Set(["Node", "Element", "HTMLElement", "Document", "Window", "String", "Array", "Math", "Number", "Object", "UIEvent", "DocumentFragment"]);

/** `Owner.member` uses that neither the whole-class checks nor COVERED account for. */
export function uncoveredUses(uses: { owner: string | undefined; name: string }[]): string[] {
	const whole = new Set<string>(WHOLE);
	const covered = COVERED as Record<string, readonly string[]>;
	const apart = new Set<string>(CHECKED_APART);
	return uses
		.filter(({ owner, name }) => {
			if (owner === undefined || whole.has(owner) || GLOBALS.has(owner) || apart.has(`${owner}.${name}`)) return false;
			const listed = covered[owner] ?? covered[INHERITED_BY[owner] ?? ""] ?? [];
			return !listed.includes(name);
		})
		.map(({ owner, name }) => `${owner ?? ""}.${name}`);
}

describe("runtime conformance", () => {
	it("covers every member of Obsidian's classes that src/ uses", () => {
		const uses = obsidianUses();
		expect(uses.filter((u) => u.owner !== undefined).length).toBeGreaterThan(50);
		// The rule itself: an unlisted member of a partly covered class, or of an unknown class, is reported.
		expect(uncoveredUses([{ owner: "Workspace", name: "getLeaf" }, { owner: "Workspace", name: "splitActiveLeaf" }, { owner: "FileManager", name: "renameFile" }, { owner: "View", name: "app" }])).toEqual(["Workspace.splitActiveLeaf", "FileManager.renameFile"]);
		expect(uncoveredUses(uses)).toEqual([]);
		// A type-checked program of src/: seconds, not milliseconds, on a busy machine.
	}, 60_000);
});
