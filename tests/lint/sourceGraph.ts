// A small module graph of src/ built from the TypeScript AST, for the repo-wide guard tests.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

export const ROOT = resolve(__dirname, "../..");

export type ImportKind = "static" | "type" | "dynamic" | "require";

export interface ImportRef {
	specifier: string;
	kind: ImportKind;
	/** Named bindings imported (for `import { a, b } from`). */
	names: string[];
	line: number;
}

/** Every import, export-from, dynamic import() and require() in `source`. */
export function importsOf(source: string, fileName = "file.ts"): ImportRef[] {
	const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
	const refs: ImportRef[] = [];
	const lineOf = (node: ts.Node): number => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
	const visit = (node: ts.Node): void => {
		if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
			const clause = node.importClause;
			const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
			// Type-only: `import type`, or only `type` specifiers (esbuild drops both).
			const typeOnly = !!clause && (clause.phaseModifier === ts.SyntaxKind.TypeKeyword || (!clause.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
			const names = named ? named.map((e) => (e.propertyName ?? e.name).text) : [];
			refs.push({ specifier: node.moduleSpecifier.text, kind: typeOnly ? "type" : "static", names, line: lineOf(node) });
		} else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
			const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
			const typeOnly = node.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly));
			refs.push({ specifier: node.moduleSpecifier.text, kind: typeOnly ? "type" : "static", names: [], line: lineOf(node) });
		} else if (ts.isCallExpression(node) && node.arguments.length > 0) {
			const arg = node.arguments[0];
			if (arg && ts.isStringLiteralLike(arg)) {
				if (node.expression.kind === ts.SyntaxKind.ImportKeyword) refs.push({ specifier: arg.text, kind: "dynamic", names: [], line: lineOf(node) });
				else if (ts.isIdentifier(node.expression) && node.expression.text === "require") refs.push({ specifier: arg.text, kind: "require", names: [], line: lineOf(node) });
			}
		} else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
			refs.push({ specifier: node.argument.literal.text, kind: "type", names: [], line: lineOf(node) });
		}
		ts.forEachChild(node, visit);
	};
	visit(sf);
	return refs;
}

/** The .ts file a relative specifier points to, or undefined for packages and builtins. */
export function resolveLocal(fromFile: string, specifier: string): string | undefined {
	if (!specifier.startsWith(".")) return undefined;
	const base = resolve(dirname(fromFile), specifier);
	return [`${base}.ts`, join(base, "index.ts"), base].find((p) => p.endsWith(".ts") && existsSync(p));
}

export function rel(file: string): string {
	return relative(ROOT, file).replace(/\\/g, "/");
}

/** Production sources under `dir` (tests excluded). */
export function sourceFiles(dir = join(ROOT, "src")): string[] {
	const out: string[] = [];
	for (const name of readdirSync(dir)) {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
		else if (name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".d.ts")) out.push(path);
	}
	return out.sort();
}

const cache = new Map<string, ImportRef[]>();
export function fileImports(file: string): ImportRef[] {
	let refs = cache.get(file);
	if (!refs) {
		refs = importsOf(readFileSync(file, "utf8"), file);
		cache.set(file, refs);
	}
	return refs;
}

/**
 * Files reachable from `entries` following imports of the given kinds, each with the chain that
 * reached it (for error messages).
 */
export function reachableFrom(entries: string[], kinds: ImportKind[]): Map<string, string[]> {
	const chains = new Map<string, string[]>();
	const queue = entries.map((e) => ({ file: e, chain: [rel(e)] }));
	while (queue.length) {
		const next = queue.shift();
		if (!next || chains.has(next.file)) continue;
		chains.set(next.file, next.chain);
		for (const ref of fileImports(next.file)) {
			if (!kinds.includes(ref.kind)) continue;
			const target = resolveLocal(next.file, ref.specifier);
			if (target && !chains.has(target)) queue.push({ file: target, chain: [...next.chain, rel(target)] });
		}
	}
	return chains;
}

/** Import cycles among `files` through imports of the given kinds; each cycle as a path list. */
export function findCycles(files: string[], kinds: ImportKind[], importsOfFile: (f: string) => ImportRef[] = fileImports): string[][] {
	const graph = new Map<string, string[]>();
	for (const f of files) {
		const targets = importsOfFile(f)
			.filter((r) => kinds.includes(r.kind))
			.map((r) => resolveLocal(f, r.specifier))
			.filter((t): t is string => t !== undefined);
		graph.set(f, targets);
	}
	return cyclesIn(graph);
}

/** Cycles in a directed graph (Tarjan's strongly connected components of size > 1, or self-loops). */
export function cyclesIn(graph: Map<string, string[]>): string[][] {
	let index = 0;
	const indices = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const out: string[][] = [];
	const strong = (v: string): void => {
		indices.set(v, index);
		low.set(v, index);
		index++;
		stack.push(v);
		onStack.add(v);
		for (const w of graph.get(v) ?? []) {
			if (!indices.has(w)) {
				strong(w);
				low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
			} else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, indices.get(w) ?? 0));
		}
		if (low.get(v) === indices.get(v)) {
			const component: string[] = [];
			let w: string | undefined;
			do {
				w = stack.pop();
				if (w === undefined) break;
				onStack.delete(w);
				component.push(w);
			} while (w !== v);
			if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.map(rel).sort());
		}
	};
	for (const v of graph.keys()) if (!indices.has(v)) strong(v);
	return out;
}
