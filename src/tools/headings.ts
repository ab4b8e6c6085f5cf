// The headings of a Markdown note, outside fenced code, with where each section ends: read_note's
// `heading` and edit_note's "insert under a heading" both work on sections.

export interface Section {
	/** The heading's text without the #s ("Next steps"). */
	title: string;
	level: number;
	/** 0-based line of the heading. */
	line: number;
	/** 0-based line after the section's last line (the next heading of the same or a higher level, or the end). */
	endLine: number;
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function sections(lines: readonly string[]): Section[] {
	const found: Section[] = [];
	let fence = "";
	lines.forEach((line, i) => {
		const f = FENCE.exec(line);
		if (fence) {
			if (f?.[1] && f[1][0] === fence[0] && f[1].length >= fence.length && line.trim() === f[1]) fence = "";
			return;
		}
		if (f?.[1]) {
			fence = f[1];
			return;
		}
		const h = HEADING.exec(line);
		if (h?.[1]) found.push({ title: (h[2] ?? "").trim(), level: h[1].length, line: i, endLine: lines.length });
	});
	for (let k = 0; k < found.length; k++) {
		const s = found[k] as Section;
		const next = found.slice(k + 1).find((o) => o.level <= s.level);
		if (next) s.endLine = next.line;
	}
	return found;
}

/** "## Next steps", "next steps" and "Next Steps" all name the heading "Next steps". */
export function headingKey(text: string): string {
	return text.replace(/^\s*#+\s*/, "").replace(/\s+/g, " ").trim().toLowerCase();
}
