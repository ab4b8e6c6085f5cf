// Obsidian's parseYaml / stringifyYaml over the YAML subset front matter uses: `key: scalar`,
// `key: [a, b]` (flow lists, nested ones too: `[[Note]]`), `key:` followed by `- item` lines, `#`
// comments. `key:` with nothing after it (and no items) is null, as in YAML. Like Obsidian's (a
// real YAML parser), it throws on text it cannot read: an unclosed flow list, a line that is
// neither a pair, an item nor a comment.

function unquote(v: string): string {
	if (v.startsWith('"')) return JSON.parse(v) as string;
	return v.slice(1, -1).replace(/''/g, "'");
}

function scalar(raw: string): unknown {
	const v = raw.trim();
	if (/^"(?:[^"\\]|\\.)*"$|^'(?:[^']|'')*'$/.test(v)) return unquote(v);
	if (/^["']/.test(v)) throw new Error(`Unclosed quote: ${v}`);
	if (v === "" || v === "~" || v === "null") return null;
	if (v === "true" || v === "false") return v === "true";
	if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v)) return Number(v);
	return v;
}

/** A flow list `[a, [b], "c, d"]`, read from `text` at `start` (its `[`); returns the list and where it ended. */
function flowList(text: string, start: number): { list: unknown[]; end: number } {
	const list: unknown[] = [];
	let i = start + 1;
	let item = "";
	let quote: string | undefined;
	const push = (): void => {
		if (item.trim() !== "") list.push(scalar(item));
		item = "";
	};
	while (i < text.length) {
		const c = text[i]!;
		if (quote) {
			item += c;
			if (c === quote) quote = undefined;
		} else if (c === '"' || c === "'") {
			quote = c;
			item += c;
		} else if (c === "[") {
			const inner = flowList(text, i);
			list.push(inner.list);
			i = inner.end;
			item = "";
		} else if (c === "]") {
			push();
			return { list, end: i };
		} else if (c === ",") push();
		else item += c;
		i++;
	}
	throw new Error(`Unclosed flow list: ${text}`);
}

function value(raw: string): unknown {
	const v = raw.trim();
	if (v.startsWith("[")) {
		const { list, end } = flowList(v, 0);
		if (v.slice(end + 1).trim() !== "") throw new Error(`Unexpected text after a list: ${v}`);
		return list;
	}
	if (v.startsWith("{")) throw new Error("Flow mappings are outside the runtime's YAML subset");
	return scalar(v);
}

const stripComment = (line: string): string => (/^\s*#/.test(line) ? "" : line.replace(/\s+#.*$/, ""));

export function parseYaml(text: string): unknown {
	const out: Record<string, unknown> = {};
	let listKey: string | undefined;
	for (const rawLine of text.split(/\r?\n/)) {
		const line = stripComment(rawLine);
		if (line.trim() === "") continue;
		const item = /^\s*-\s+(.*)$/.exec(line);
		if (item) {
			if (listKey === undefined) throw new Error(`A list item outside a list: ${rawLine}`);
			const list = (out[listKey] ??= []) as unknown[];
			list.push(value(item[1] ?? ""));
			continue;
		}
		const pair = /^([^\s:#-][^:]*):(?:\s+(.*)|)$/.exec(line);
		if (!pair) throw new Error(`Cannot read the line: ${rawLine}`);
		const key = (pair[1] ?? "").trim();
		const rest = (pair[2] ?? "").trim();
		if (rest === "") {
			out[key] = null;
			listKey = key;
		} else {
			out[key] = value(rest);
			listKey = undefined;
		}
	}
	return out;
}

function stringifyScalar(v: unknown): string {
	if (v === null || v === undefined) return "";
	if (typeof v === "number" || typeof v === "boolean") return String(v);
	const s = typeof v === "string" ? v : JSON.stringify(v);
	return /^[\w./ ()-]+$/.test(s) && !/^\s|\s$/.test(s) && scalar(s) === s ? s : JSON.stringify(s);
}

export function stringifyYaml(obj: unknown): string {
	if (typeof obj !== "object" || obj === null) return `${stringifyScalar(obj)}\n`;
	const lines: string[] = [];
	for (const [key, v] of Object.entries(obj as Record<string, unknown>)) {
		if (v === undefined) continue;
		if (Array.isArray(v)) {
			if (v.length === 0) lines.push(`${key}: []`);
			else {
				lines.push(`${key}:`);
				for (const item of v) lines.push(`  - ${Array.isArray(item) ? JSON.stringify(item) : stringifyScalar(item)}`);
			}
		} else lines.push(`${key}: ${stringifyScalar(v)}`.trimEnd());
	}
	return lines.join("\n") + "\n";
}
