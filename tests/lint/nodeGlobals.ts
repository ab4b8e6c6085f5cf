// Identifiers that only Node declares (process, Buffer, require, an http response's methods...),
// found by the type checker: mobile has no Node, so the plugin's static import graph must use none.
import { join } from "node:path";
import ts from "typescript";
import { rel, ROOT } from "./sourceGraph";
import { srcProgram, srcSourceFiles } from "./srcProgram";

const NODE_TYPES = "/node_modules/@types/node/";

/** The plugin's runtime dependencies: esbuild bundles them, so `require("marked")` asks nothing of the host at run time. */
const BUNDLED = new Set(Object.keys((JSON.parse(ts.sys.readFile(join(ROOT, "package.json")) ?? "{}") as { dependencies?: Record<string, string> }).dependencies ?? {}));

/**
 * `require("pkg")` of a bundled runtime dependency (a lazy load the bundler resolves at build time:
 * main.js requires only what tests/lint/bundle.test.ts allows). Any other require is Node's.
 */
function bundledRequire(node: ts.Identifier): boolean {
	const call = node.parent;
	if (node.text !== "require" || !ts.isCallExpression(call) || call.expression !== node || call.arguments.length !== 1) return false;
	const arg = call.arguments[0];
	return arg !== undefined && ts.isStringLiteral(arg) && BUNDLED.has(arg.text);
}

let names: Set<string> | undefined;

/**
 * The names written in Node's declarations: an identifier with any other text resolves to no Node
 * declaration (an import's alias resolves to the import, not through it), so the scan skips it
 * without asking the checker (most of the scan's time; the result is the same).
 */
function nodeNames(): Set<string> {
	if (names) return names;
	names = new Set();
	for (const sf of srcProgram().getSourceFiles()) {
		if (!sf.fileName.replace(/\\/g, "/").includes(NODE_TYPES)) continue;
		const visit = (node: ts.Node): void => {
			if (ts.isIdentifier(node)) names?.add(node.text);
			ts.forEachChild(node, visit);
		};
		visit(sf);
	}
	return names;
}

/** "src/file.ts: name" for each identifier in `files` whose every declaration is Node's. */
export function nodeOnlyIdentifiers(files: string[]): string[] {
	const checker = srcProgram().getTypeChecker();
	const candidates = nodeNames();
	const found = new Set<string>();
	for (const sf of srcSourceFiles(files)) {
		const visit = (node: ts.Node): void => {
			if (ts.isIdentifier(node) && candidates.has(node.text) && !bundledRequire(node)) {
				const decls = checker.getSymbolAtLocation(node)?.declarations ?? [];
				// DOM and Node both declare setTimeout, URL, fetch...: only Node-only names count.
				if (decls.length > 0 && decls.every((d) => d.getSourceFile().fileName.replace(/\\/g, "/").includes(NODE_TYPES))) found.add(`${rel(sf.fileName)}: ${node.text}`);
			}
			ts.forEachChild(node, visit);
		};
		visit(sf);
	}
	return [...found].sort();
}
