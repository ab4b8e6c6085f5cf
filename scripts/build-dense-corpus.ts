// Writes tests/fixtures/tokens/dense.jsonl: the seeded dense texts (tests/fixtures/tokens/dense/)
// with their exact o200k and cl100k counts from gpt-tokenizer (a dev dependency), and the split
// each belongs to: "train" texts may be used by scripts/fit-token-model.ts, "held-out" never.
// Run: `npx tsx scripts/build-dense-corpus.ts`. The same seed always writes the same file.
import { writeFileSync } from "node:fs";
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { denseTexts } from "../tests/fixtures/tokens/dense/denseTexts";

export const DENSE_SEED = 20260611;
export const DENSE_PER_CELL = 4;

function main(): void {
	const seen = new Map<string, number>();
	const lines = denseTexts(DENSE_SEED, DENSE_PER_CELL).map((t) => {
		const cell = `${t.category}/${t.script}`;
		const k = seen.get(cell) ?? 0;
		seen.set(cell, k + 1);
		// Every fourth text of each category and script is held out of the fit.
		const split = k % 4 === 1 ? "held-out" : "train";
		return JSON.stringify({ category: t.category, script: t.script, split, o200k: countO200k(t.text), cl100k: countCl100k(t.text), text: t.text });
	});
	writeFileSync(new URL("../tests/fixtures/tokens/dense.jsonl", import.meta.url), `${lines.join("\n")}\n`);
	console.error(`wrote tests/fixtures/tokens/dense.jsonl: ${lines.length} texts`);
}

main();
