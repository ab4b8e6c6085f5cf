import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canvasSources, canvasToSources, readCanvas, readCanvasSteps } from "../../src/context/canvasSources";
import { fitSource } from "../../src/context/relevanceFit";
import { runInSlices, type SliceTiming } from "../../src/context/steps";
import { estimateTokens } from "../../src/chat/tokens";

const MAP = readFileSync(new URL("../fixtures/canvas/research-map.canvas", import.meta.url), "utf8");
const FRISCH = "# Von Frisch\nBees dance to share where the flowers are.";

describe("a canvas as sources", () => {
	it("gives the canvas as one text: cards in reading order under their group labels, nested groups one level deeper, edges as connections", () => {
		const [canvas, ...notes] = canvasToSources(MAP, "Maps/Bees.canvas", new Map([["Papers/von Frisch.md", FRISCH]]));
		expect(canvas).toMatchObject({ id: "Maps/Bees.canvas", name: "Bees", kind: "note" });
		expect(canvas?.text).toBe(
			[
				"Link: https://example.org/waggle",
				"Ask the beekeeper",
				"## Research",
				"# Question\nWhy do bees dance?",
				"The waggle dance points to food.",
				"### Sources",
				"Note: [[Papers/von Frisch]] (its text follows as its own source)",
				"Note: [[Papers/Lost paper#Results]] (missing: no such note in the vault)",
				"File: Attachments/hive.png",
				"## (untitled group)",
				"## Connections\n- Question → The waggle dance points to food. (answered by)\n- The waggle dance points to food. → von Frisch\n- The waggle dance points to food. → Lost paper#Results (contradicts)\n- Ask the beekeeper — https://example.org/waggle",
			].join("\n\n"),
		);
		// The note a file card points to, as its own source under the canvas; the missing one is not invented.
		expect(notes).toEqual([{ id: "Papers/von Frisch.md", name: "Bees › von Frisch", text: FRISCH, kind: "note" }]);
	});

	it("returns the notes and files its cards point to, for the caller to read", () => {
		const reading = readCanvas(MAP);
		expect(reading.notes).toEqual([{ path: "Papers/von Frisch.md" }, { path: "Papers/Lost paper.md", subpath: "#Results" }]);
		expect(reading.files).toEqual(["Attachments/hive.png"]);
		expect(reading.cards).toBe(7);
		expect(reading.edges).toBe(4);
		// Without the notes' texts the canvas only names them.
		expect(canvasToSources(MAP, "Bees.canvas")).toHaveLength(1);
		expect(canvasToSources(MAP, "Bees.canvas")[0]?.text).toContain("Note: [[Papers/Lost paper#Results]]\n");
	});

	it("says what is wrong with a damaged canvas instead of sending nothing, and keeps the good cards of a partly damaged one", () => {
		expect(canvasToSources("{not json", "Broken.canvas")[0]?.text).toBe("The canvas file is not valid JSON.");
		expect(canvasToSources("[]", "Broken.canvas")[0]?.text).toBe("The canvas file has no nodes object.");
		const partly = JSON.stringify({ nodes: [null, { id: "a", type: "text", text: "kept", x: 0, y: 0, width: 10, height: 10 }, { type: "text", text: "no id" }, { id: "b", type: "video" }], edges: "nope" });
		expect(canvasToSources(partly, "P.canvas")[0]?.text).toBe("kept");
		expect(canvasToSources("{}", "Empty.canvas")[0]?.text).toBe("");
	});

	it("never lets two groups of the same size hold each other, and nests any depth", () => {
		const nodes = [
			{ id: "g1", type: "group", x: 0, y: 0, width: 100, height: 100, label: "Below" },
			{ id: "g2", type: "group", x: 0, y: 0, width: 100, height: 100, label: "Above" },
			{ id: "t", type: "text", x: 10, y: 10, width: 10, height: 10, text: "inside both" },
		];
		expect(readCanvas(JSON.stringify({ nodes })).text).toBe("## Below\n\n### Above\n\ninside both");
		const deep = Array.from({ length: 9 }, (_, k) => ({ id: `g${k}`, type: "group", x: k, y: k, width: 100 - 2 * k, height: 100 - 2 * k, label: `Level ${k}` }));
		const text = readCanvas(JSON.stringify({ nodes: [...deep, { id: "t", type: "text", x: 40, y: 40, width: 5, height: 5, text: "core" }] })).text;
		expect(text.startsWith("## Level 0\n\n### Level 1")).toBe(true);
		expect(text).toContain("###### Level 8\n\ncore");
	});

	it("keeps every text card's words, whatever the layout (a property)", () => {
		const card = fc.record({ x: fc.integer({ min: -500, max: 500 }), y: fc.integer({ min: -500, max: 500 }), w: fc.integer({ min: 0, max: 400 }), h: fc.integer({ min: 0, max: 400 }), group: fc.boolean() });
		fc.assert(
			fc.property(fc.array(card, { maxLength: 40 }), (cards) => {
				const nodes = cards.map((c, k) => (c.group ? { id: `n${k}`, type: "group", x: c.x, y: c.y, width: c.w, height: c.h, label: `G${k}` } : { id: `n${k}`, type: "text", x: c.x, y: c.y, width: c.w, height: c.h, text: `card${k}` }));
				const reading = readCanvas(JSON.stringify({ nodes }));
				for (const n of nodes) expect(reading.text).toContain(n.type === "group" ? `G${n.id.slice(1)}` : `card${n.id.slice(1)}`);
				expect(reading.cards).toBe(nodes.filter((n) => n.type !== "group").length);
			}),
			{ numRuns: 200 },
		);
	});
});

/** A canvas of 2,000 cards in 100 groups (of 20 cards, in 10 super-groups), with an edge from each card to the next. */
function bigCanvas(): string {
	const nodes: object[] = [];
	const edges: object[] = [];
	for (let s = 0; s < 10; s++) {
		nodes.push({ id: `s${s}`, type: "group", x: s * 10_000 - 50, y: -50, width: 9_900, height: 9_000, label: `Part ${s}` });
		for (let g = 0; g < 10; g++) {
			const gx = s * 10_000 + g * 950;
			nodes.push({ id: `g${s}-${g}`, type: "group", x: gx, y: 0, width: 900, height: 8_000, label: `Topic ${s * 10 + g}` });
			for (let c = 0; c < 20; c++) {
				const k = (s * 10 + g) * 20 + c;
				const text = k === 1234 ? "The lighthouse keeper logs the storm at midnight." : `Card ${k} about ordinary things, item ${k % 17} of the list.`;
				nodes.push({ id: `c${k}`, type: k % 50 === 7 ? "file" : "text", x: gx + 10, y: 10 + c * 390, width: 880, height: 380, ...(k % 50 === 7 ? { file: `Notes/Note ${k}.md` } : { text }) });
				if (k > 0) edges.push({ id: `e${k}`, fromNode: `c${k - 1}`, toNode: `c${k}`, ...(k % 100 === 0 ? { label: "next part" } : {}) });
			}
		}
	}
	return JSON.stringify({ nodes, edges });
}

describe("a 2,000-card canvas", () => {
	it("is read in slices of a few milliseconds, keeps every card, and the fitter finds the relevant one", async () => {
		const json = bigCanvas();
		const timing: SliceTiming = { slices: 0, longestSliceMs: 0 };
		const t0 = performance.now();
		const reading = await runInSlices(readCanvasSteps(json, () => "found"), () => Promise.resolve(), { sliceMs: 8, timing });
		const readMs = performance.now() - t0;
		expect(reading.cards).toBe(2_000);
		expect(reading.edges).toBe(1_999);
		expect(reading.notes).toHaveLength(40);
		expect(reading.text).toContain("## Part 6\n\n### Topic 60\n\nCard 1200 about");
		// The work is cut in many slices (counted, not timed: the shared test machine's load makes any
		// one slice's time noise). The JSON's parse is one piece of work that cannot be cut.
		const steps = readCanvasSteps(json);
		let yields = 0;
		while (steps.next().done !== true) yields++;
		expect(yields).toBeGreaterThan((2_110 + 2_000 + 1_999) / 200);
		expect(timing.slices).toBeGreaterThan(1);
		const [canvas] = canvasSources(reading, "Big.canvas");
		const budget = 2_000;
		const fitT0 = performance.now();
		const fit = fitSource({ id: "Big.canvas", name: "Big", text: canvas?.text ?? "" }, budget, "lighthouse storm", estimateTokens);
		const fitMs = performance.now() - fitT0;
		expect(fit.fit).toBe("excerpts");
		expect(fit.text).toContain("The lighthouse keeper logs the storm at midnight.");
		expect(fit.sentTokens).toBeLessThanOrEqual(budget);
		console.log(
			`2,000-card canvas: ${json.length} characters of JSON, read in ${readMs.toFixed(1)} ms over ${timing.slices} slices (longest ${timing.longestSliceMs.toFixed(1)} ms); ` +
				`text ${canvas?.text.length} characters, ~${fit.totalTokens} tokens; fitted to ${budget}: ${fit.fit}, ${fit.sentTokens} tokens sent, ${fit.passages.length} passages, in ${fitMs.toFixed(1)} ms`,
		);
	});
});
