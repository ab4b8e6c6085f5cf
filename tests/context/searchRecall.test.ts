import { describe, expect, it } from "vitest";
import { NoteIndex } from "../../src/context/NoteIndex";
import { seededRandom } from "../support/random";

// Chinese and Japanese names of invented characters, misspelled by one character in the middle (which
// breaks both character pairs it is in: a three-character name loses all of its pairs), and phrases recalled across a line break.
const range = (from: number, count: number): string[] => Array.from({ length: count }, (_, i) => String.fromCharCode(from + i));
const HAN = range(0x6a80, 600);

function vault(chars: readonly string[], join: string): { index: NoteIndex; names: string[] } {
	const rnd = seededRandom(7);
	const pick = (): string => chars[Math.floor(rnd() * chars.length)] ?? "";
	const index = new NoteIndex();
	const names: string[] = [];
	for (let i = 0; i < 400; i++) {
		const name = Array.from({ length: 3 }, pick).join("");
		names.push(name);
		const body = Array.from({ length: 30 }, () => Array.from({ length: 3 }, pick).join("")).join(join);
		index.upsert(`n/${i}.md`, `# ${name}\n\n${body}`, name);
	}
	return { index, names };
}

describe("search recall", () => {
	// Japanese kana are too few for this: in a vault of kana names nearly every pair is some note's,
	// so a mistyped pair is known and not corrected (the report says so).
	for (const [script, chars, join] of [["Chinese", HAN, "，"]] as const) {
		it(`a ${script} name with its middle character mistyped still finds its note in the top 3`, () => {
			const { index, names } = vault(chars, join);
			let found = 0;
			let asked = 0;
			for (let i = 0; i < 400; i += 10) {
				const name = names[i] as string;
				if (names.indexOf(name) !== i) continue;
				const c = Array.from(name);
				const wrong = chars[(i * 37 + 11) % chars.length] as string;
				if (wrong === c[1]) continue;
				c[1] = wrong;
				asked++;
				const top = [...new Set(index.search(c.join(""), { limit: 10, perNote: 1 }).map((h) => h.id))].slice(0, 3);
				if (top.includes(`n/${i}.md`)) found++;
			}
			expect(asked).toBeGreaterThan(30);
			// 0 before the correction; the rest lose to notes that hold both corrected pairs apart.
			expect(found / asked).toBeGreaterThanOrEqual(0.75);
		});
	}

	it("a phrase recalled across a line break ranks the note that holds it first", () => {
		const index = new NoteIndex();
		const line = "the quick server restarts the daemon after the backup completes";
		for (let i = 0; i < 30; i++) index.upsert(`n/${i}.md`, `${line.split(" ").reverse().join(" ")} ${i}\n\n${line.split(" ").slice(0, 5).join(" ")} and more\n\n${line.split(" ").slice(5).join(" ")}.`);
		index.upsert("target.md", "Notes.\n\nthe quick server restarts the\ndaemon after the backup completes, usually.");
		expect(index.search("server restarts the daemon after the", { limit: 1 })[0]?.id).toBe("target.md");
	});
});
