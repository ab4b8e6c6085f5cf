// Run by tests/processes/indexRetention.test.ts as `node --import tsx <this file>`: builds
// a vault index that keeps no texts from notes of about 512 KB each, every one with its own long
// accented word and heading, and prints how much heap the index holds after a full GC, with the
// texts' total size, as one JSON line. The texts are made in the generator and never kept here.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { NoteIndex } from "../../src/context/NoteIndex";
import { indexInSlices } from "../../src/context/indexInSlices";

const NOTES = 40;
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

let textBytes = 0;
function* notes(): Generator<{ id: string; name: string; text: string; mtime: number }> {
	for (let i = 0; i < NOTES; i++) {
		const filler = "lorem ipsum dolor sit amet ".repeat(19_000);
		const text = `## Überweisungsvorgang${i} und Sicherungsbereich${i}\n\n${filler}\n\nDie Überweisungsbestätigung${i} kam spät.\n`;
		textBytes += text.length;
		yield { id: `Notes/n${i}.md`, name: `n${i}`, text, mtime: i };
	}
}

async function main(): Promise<void> {
	gc();
	const before = process.memoryUsage().heapUsed;
	const index = new NoteIndex({ keepText: false });
	await indexInSlices(index, notes(), async () => {}, { sliceMs: 50 });
	gc();
	const held = process.memoryUsage().heapUsed - before;
	// The index must still answer (it is alive while measured).
	const found = index.search("Überweisungsbestätigung7", { limit: 1 }).map((h) => h.id);
	process.stdout.write(`${JSON.stringify({ held, textBytes, notes: index.size, found })}\n`);
}
void main();
