// A canvas (JSON Canvas 1.0, jsoncanvas.org: `nodes` of type text, file, link and group, and `edges`)
// as sources for the model. The canvas becomes one text, fitted by relevance like a note: its cards in
// reading order under their groups' labels as headings (a group inside a group one level deeper), and
// its edges as "Card A → Card B (label)". The notes its file cards point to are returned as
// references for the caller to read (this module reads nothing), and each becomes its own source
// under the canvas. Pure and linear in the canvas, written as steps so a caller on the app's main
// thread runs a large canvas in slices (src/context/steps.ts).
import type { ContextSource } from "../core/types";
import { parseJsonSteps } from "./jsonSteps";
import { drain, type Steps } from "./steps";

interface CanvasNode {
	id: string;
	type: "text" | "file" | "link" | "group";
	x: number;
	y: number;
	width: number;
	height: number;
	text?: string;
	file?: string;
	subpath?: string;
	url?: string;
	label?: string;
	/** Position in the file: later nodes are drawn above earlier ones. */
	order: number;
}

/** A note a file card points to. */
export interface CanvasNoteRef {
	/** Its vault path, as the canvas stores it ("Folder/Note.md"). */
	path: string;
	/** "#Heading" or "#^block" when the card shows part of the note. */
	subpath?: string;
}

export interface CanvasReading {
	/** The canvas as one text (empty when the canvas has no cards). */
	text: string;
	/** The notes its file cards point to, in reading order, once each. */
	notes: CanvasNoteRef[];
	/** Its other files (images, PDFs, other canvases), in reading order, once each. */
	files: string[];
	cards: number;
	edges: number;
	/** Set when the file is not a canvas Discover can read (not JSON, no nodes array): what is wrong. */
	problem?: string;
}

/** How a file card's note is described: found (it follows as a source of its own) or missing. */
export type NoteState = (path: string) => "found" | "missing" | "unknown";

const CARD_NAME_CHARS = 60;
/** Work between two yields of the steps. */
const STEP = 200;

function num(v: unknown): number {
	return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

function str(v: unknown): string | undefined {
	return typeof v === "string" ? v : undefined;
}

/** The nodes, checked one by one: a damaged node is dropped, the others kept. */
function parseNodes(data: unknown): CanvasNode[] {
	const nodes: CanvasNode[] = [];
	if (!Array.isArray(data)) return nodes;
	(data as unknown[]).forEach((item, order) => {
		if (typeof item !== "object" || item === null) return;
		const n = item as Record<string, unknown>;
		const type = n.type;
		const id = str(n.id);
		if (id === undefined || (type !== "text" && type !== "file" && type !== "link" && type !== "group")) return;
		nodes.push({ id, type, x: num(n.x), y: num(n.y), width: Math.max(0, num(n.width)), height: Math.max(0, num(n.height)), text: str(n.text), file: str(n.file), subpath: str(n.subpath), url: str(n.url), label: str(n.label), order });
	});
	return nodes;
}

function isNote(path: string): boolean {
	return /\.md$/i.test(path);
}

function baseName(path: string): string {
	return (path.split("/").pop() ?? path).replace(/\.md$/i, "");
}

/** What an edge calls a card: a text card's first line, a file's name, a link's address, a group's label. */
function cardName(node: CanvasNode): string {
	let name: string;
	if (node.type === "text") name = (node.text ?? "").split("\n").map((l) => l.replace(/^\s*(#{1,6}\s+|[-*+]\s+|>\s*)/, "").trim()).find((l) => l !== "") ?? "(empty card)";
	else if (node.type === "file") name = baseName(node.file ?? "") + (node.subpath ?? "");
	else if (node.type === "link") name = node.url ?? "";
	else name = node.label?.trim() || "(untitled group)";
	return name.length > CARD_NAME_CHARS ? `${name.slice(0, CARD_NAME_CHARS - 1)}…` : name;
}

function area(n: CanvasNode): number {
	return n.width * n.height;
}

function inside(n: CanvasNode, g: CanvasNode): boolean {
	return n.x >= g.x && n.y >= g.y && n.x + n.width <= g.x + g.width && n.y + n.height <= g.y + g.height;
}

/** Reading order: top to bottom, then left to right. */
function byPlace(a: CanvasNode, b: CanvasNode): number {
	return a.y - b.y || a.x - b.x || a.order - b.order;
}

/** The canvas read as steps (drain them, or run them in slices). */
export function* readCanvasSteps(canvasJson: string, noteState: NoteState = () => "unknown"): Steps<CanvasReading> {
	let data: unknown;
	try {
		// In steps: one JSON.parse of a canvas of thousands of cards was a task of about 60 ms.
		data = yield* parseJsonSteps(canvasJson);
	} catch {
		return { text: "", notes: [], files: [], cards: 0, edges: 0, problem: "The canvas file is not valid JSON." };
	}
	if (typeof data !== "object" || data === null || Array.isArray(data)) return { text: "", notes: [], files: [], cards: 0, edges: 0, problem: "The canvas file has no nodes object." };
	const root = data as Record<string, unknown>;
	const nodes = parseNodes(root.nodes);
	yield;
	// Each card's group: the smallest group around it (groups by area, smallest first; equal areas:
	// the one drawn below holds the one above, so two groups never hold each other).
	const groups = nodes.filter((n) => n.type === "group").sort((a, b) => area(a) - area(b) || b.order - a.order);
	const parent = new Map<CanvasNode, CanvasNode | undefined>();
	let work = 0;
	for (const node of nodes) {
		let holder: CanvasNode | undefined;
		for (const g of groups) {
			work++;
			if (g === node || area(g) < area(node) || (area(g) === area(node) && g.order >= node.order)) continue;
			if (inside(node, g)) {
				holder = g;
				break;
			}
		}
		parent.set(node, holder);
		if (work >= STEP) {
			work = 0;
			yield;
		}
	}
	const children = new Map<CanvasNode | undefined, CanvasNode[]>();
	for (const node of nodes) {
		const p = parent.get(node);
		const list = children.get(p);
		if (list) list.push(node);
		else children.set(p, [node]);
	}
	for (const list of children.values()) list.sort(byPlace);
	yield;

	const out: string[] = [];
	const notes: CanvasNoteRef[] = [];
	const files: string[] = [];
	const seenNotes = new Set<string>();
	const seenFiles = new Set<string>();
	const cardText = (node: CanvasNode): string => {
		if (node.type === "text") return (node.text ?? "").trim();
		if (node.type === "link") return `Link: ${node.url ?? ""}`;
		const path = node.file ?? "";
		if (isNote(path)) {
			const key = `${path}${node.subpath ?? ""}`;
			if (!seenNotes.has(key)) {
				seenNotes.add(key);
				notes.push(node.subpath ? { path, subpath: node.subpath } : { path });
			}
			const state = noteState(path);
			const ref = `Note: [[${path.replace(/\.md$/i, "")}${node.subpath ?? ""}]]`;
			return state === "missing" ? `${ref} (missing: no such note in the vault)` : state === "found" ? `${ref} (its text follows as its own source)` : ref;
		}
		if (!seenFiles.has(path)) {
			seenFiles.add(path);
			files.push(path);
		}
		return `File: ${path}`;
	};
	let cards = 0;
	// Depth-first through the groups; an explicit stack, since groups may nest deeply.
	const stack: { node: CanvasNode; depth: number }[] = [...(children.get(undefined) ?? [])].sort((a, b) => groupLast(a, b)).reverse().map((node) => ({ node, depth: 0 }));
	while (stack.length > 0) {
		const { node, depth } = stack.pop() as { node: CanvasNode; depth: number };
		if (node.type === "group") {
			out.push(`${"#".repeat(Math.min(6, depth + 2))} ${cardName(node)}`);
			const inner = [...(children.get(node) ?? [])].sort(groupLast);
			for (let k = inner.length - 1; k >= 0; k--) stack.push({ node: inner[k] as CanvasNode, depth: depth + 1 });
		} else {
			cards++;
			const text = cardText(node);
			if (text !== "") out.push(text);
		}
		if (++work >= STEP) {
			work = 0;
			yield;
		}
	}
	const byId = new Map(nodes.map((n) => [n.id, n]));
	const lines: string[] = [];
	let edges = 0;
	for (const item of Array.isArray(root.edges) ? (root.edges as unknown[]) : []) {
		if (typeof item !== "object" || item === null) continue;
		const e = item as Record<string, unknown>;
		const from = byId.get(str(e.fromNode) ?? "");
		const to = byId.get(str(e.toNode) ?? "");
		if (!from || !to) continue;
		edges++;
		// Ends as the spec defaults them: no arrow at the start, an arrow at the end.
		const fromArrow = e.fromEnd === "arrow";
		const toArrow = e.toEnd !== "none";
		const label = str(e.label)?.trim();
		const [a, b] = !toArrow && fromArrow ? [to, from] : [from, to];
		const arrow = fromArrow && toArrow ? "↔" : fromArrow || toArrow ? "→" : "—";
		lines.push(`- ${cardName(a)} ${arrow} ${cardName(b)}${label ? ` (${label})` : ""}`);
		if (++work >= STEP) {
			work = 0;
			yield;
		}
	}
	if (lines.length > 0) out.push(`## Connections\n${lines.join("\n")}`);
	return { text: out.join("\n\n"), notes, files, cards, edges };
}

/** Cards before groups at one level, each in reading order: a group's heading then covers only its own cards. */
function groupLast(a: CanvasNode, b: CanvasNode): number {
	return (a.type === "group" ? 1 : 0) - (b.type === "group" ? 1 : 0) || byPlace(a, b);
}

export function readCanvas(canvasJson: string, noteState?: NoteState): CanvasReading {
	return drain(readCanvasSteps(canvasJson, noteState));
}

function canvasName(path: string): string {
	return (path.split("/").pop() ?? path).replace(/\.canvas$/i, "");
}

/**
 * The sources a canvas gives: the canvas itself (id: its path), then, for each note a file card
 * points to whose text `noteTexts` holds, that note as its own source, named under the canvas
 * ("Map › Note"). Without `noteTexts`, only the canvas (its file cards name their notes); with it, a
 * note it does not hold is marked missing in the canvas's text.
 */
export function canvasToSources(canvasJson: string, path: string, noteTexts?: ReadonlyMap<string, string>): ContextSource[] {
	const reading = readCanvas(canvasJson, noteTexts ? (p) => (noteTexts.has(p) ? "found" : "missing") : undefined);
	return canvasSources(reading, path, noteTexts);
}

/** The sources of a canvas already read (readCanvasSteps run in slices). */
export function canvasSources(reading: CanvasReading, path: string, noteTexts?: ReadonlyMap<string, string>): ContextSource[] {
	const name = canvasName(path);
	const text = reading.problem ?? reading.text;
	const out: ContextSource[] = [{ id: path, name, text, kind: "note" }];
	const taken = new Set<string>([path]);
	for (const note of reading.notes) {
		const noteText = noteTexts?.get(note.path);
		if (noteText === undefined || taken.has(note.path)) continue;
		taken.add(note.path);
		out.push({ id: note.path, name: `${name} › ${baseName(note.path)}`, text: noteText, kind: "note" });
	}
	return out;
}
