import fc from "fast-check";
import { lineArb, textArb } from "./scriptTexts";
import type { ContextSource, ContextSourceKind } from "../../src/core/types";

const KINDS: readonly (ContextSourceKind | undefined)[] = ["selection", "note", "active", "retrieved", undefined];

/** A source's text: empty, short, long lines in mixed scripts, CJK or emoji runs, or arbitrary Unicode. */
export const sourceTextArb: fc.Arbitrary<string> = fc.oneof(
	{ weight: 1, arbitrary: fc.constant("") },
	{ weight: 3, arbitrary: textArb },
	{ weight: 3, arbitrary: fc.array(lineArb, { minLength: 1, maxLength: 300 }).map((l) => l.join("\n")) },
	{ weight: 1, arbitrary: fc.integer({ min: 1, max: 3000 }).map((n) => "日本語の文章と中文的句子。".repeat(n)) },
	{ weight: 1, arbitrary: fc.integer({ min: 1, max: 2000 }).map((n) => "👩‍💻 🎉 ok\n".repeat(n)) },
);

/** 0–6 sources with unique ids, random tiers (or none: "note") and names in any script. */
export const sourcesArb: fc.Arbitrary<ContextSource[]> = fc
	.array(fc.record({ name: fc.oneof(lineArb, fc.string({ maxLength: 30 })), text: sourceTextArb, kind: fc.constantFrom(...KINDS) }), { maxLength: 6 })
	.map((list) =>
		list.map(({ name, text, kind }, i) => {
			const source: ContextSource = { id: `Folder ${i}/Note ${i}.md`, name, text };
			if (kind !== undefined) source.kind = kind;
			return source;
		}),
	);
