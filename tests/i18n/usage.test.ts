// The catalogue and the code agree: every key src/ passes to t() is in English, every English key
// is used somewhere in src/ (as t()'s argument or in a table of keys, typed MessageKey), and no key
// is pieced together from strings (it would escape both checks).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { en } from "../../src/i18n/en";
import { rel, ROOT, sourceFiles } from "../lint/sourceGraph";

interface KeyUse {
	/** Keys passed to t() as literals. */
	called: string[];
	/** t() calls whose key is built from pieces (a template or +), as "file:line". */
	computed: string[];
	/** Every string literal in the file: keys held in tables (an error code's title) count as used. */
	literals: string[];
}

export function keyUses(source: string, fileName: string): KeyUse {
	const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
	const out: KeyUse = { called: [], computed: [], literals: [] };
	const visit = (node: ts.Node): void => {
		if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.literals.push(node.text);
		if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "t") {
			const key = node.arguments[0];
			if (key && (ts.isStringLiteral(key) || ts.isNoSubstitutionTemplateLiteral(key))) out.called.push(key.text);
			else if (key && (ts.isTemplateExpression(key) || (ts.isBinaryExpression(key) && key.operatorToken.kind === ts.SyntaxKind.PlusToken))) out.computed.push(`${rel(fileName)}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`);
		}
		ts.forEachChild(node, visit);
	};
	visit(sf);
	return out;
}

/** The app's sources outside the catalogue itself. */
const appFiles = (): string[] => sourceFiles().filter((f) => !rel(f).startsWith("src/i18n/"));

describe("the key scanner (so it can fail)", () => {
	it("sees literal keys, keys pieced together and keys held in tables", () => {
		const uses = keyUses(`t("a.b"); t(\`c.d\`); t(TITLES[kind]); t(\`e.\${x}\`);\nt("e." + x); const TITLES = { network: "f.g" }; other("h");`, join(ROOT, "src/ui/x.ts"));
		expect(uses.called).toEqual(["a.b", "c.d"]);
		expect(uses.computed).toEqual(["src/ui/x.ts:1", "src/ui/x.ts:2"]);
		expect(uses.literals).toEqual(expect.arrayContaining(["a.b", "c.d", "f.g", "h"]));
	});
});

describe("the keys src/ uses", () => {
	const uses = appFiles().map((f) => keyUses(readFileSync(f, "utf8"), f));
	const keys = new Set(Object.keys(en));

	it("are all in the English catalogue, and never pieced together from strings", () => {
		expect(uses.flatMap((u) => u.called).filter((k) => !keys.has(k))).toEqual([]);
		expect(uses.flatMap((u) => u.computed)).toEqual([]);
	});

	it("leave no English key unused", () => {
		const seen = new Set(uses.flatMap((u) => u.literals));
		expect([...keys].filter((k) => !seen.has(k))).toEqual([]);
	});
});
