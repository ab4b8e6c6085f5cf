// Identifiers that only Node declares (process, Buffer, require, an http response's methods...),
// found by the type checker: mobile has no Node, so the plugin's static import graph must use none.
import { join } from "node:path";
import ts from "typescript";
import { rel, ROOT } from "./sourceGraph";

const NODE_TYPES = "/node_modules/@types/node/";

/** "src/file.ts: name" for each identifier in `files` whose every declaration is Node's. */
export function nodeOnlyIdentifiers(files: string[]): string[] {
	const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), (p) => ts.sys.readFile(p));
	const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
	const program = ts.createProgram(files, { ...options, noEmit: true });
	const checker = program.getTypeChecker();
	const wanted = new Set(files.map((f) => ts.sys.resolvePath(f)));
	const found = new Set<string>();
	for (const sf of program.getSourceFiles()) {
		if (!wanted.has(ts.sys.resolvePath(sf.fileName))) continue;
		const visit = (node: ts.Node): void => {
			if (ts.isIdentifier(node)) {
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
