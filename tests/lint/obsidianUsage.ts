// Every Obsidian API src/ uses, found by the type checker (not by import names): classes,
// functions and the members reached through them, with the `@since` obsidian.d.ts gives each.
// The manifest test derives minAppVersion from it; the runtime conformance test checks coverage.
import ts from "typescript";
import { rel, sourceFiles } from "./sourceGraph";
import { srcProgram, srcSourceFiles } from "./srcProgram";

export interface ObsidianUse {
	/** The class or interface declaring the member; undefined for a top-level export. */
	owner: string | undefined;
	name: string;
	/** From the declaration's JSDoc; undefined when obsidian.d.ts gives none. */
	since: string | undefined;
	/** The first place src/ uses it, "src/file.ts:line". */
	where: string;
}

// TypeScript names files with forward slashes on every platform.
const DTS = "/node_modules/obsidian/";

function ownerName(decl: ts.Declaration): string | undefined {
	const parent = decl.parent;
	if ((ts.isClassDeclaration(parent) || ts.isInterfaceDeclaration(parent)) && parent.name) return parent.name.text;
	return undefined;
}

/**
 * The only texts an identifier can have and still resolve to obsidian.d.ts: the names written there,
 * and every name an import or export binds anywhere in the program (an alias may rename: `App as A`).
 * Any other identifier resolves to something else, so the scan skips it without asking the checker
 * (most of the scan's time; the result is the same).
 */
function candidateNames(program: ts.Program): Set<string> {
	const names = new Set<string>();
	for (const sf of program.getSourceFiles()) {
		const all = sf.fileName.includes(DTS);
		const visit = (node: ts.Node): void => {
			if (ts.isIdentifier(node) && (all || ts.isImportClause(node.parent) || ts.isNamespaceImport(node.parent) || ts.isImportSpecifier(node.parent) || ts.isImportEqualsDeclaration(node.parent) || ts.isExportSpecifier(node.parent) || ts.isNamespaceExport(node.parent))) names.add(node.text);
			ts.forEachChild(node, visit);
		};
		visit(sf);
	}
	return names;
}

/** The uses in `program`'s files that `include` accepts, one entry per owner and name. */
export function obsidianUsesIn(program: ts.Program, include: (fileName: string) => boolean): ObsidianUse[] {
	const checker = program.getTypeChecker();
	const candidates = candidateNames(program);
	const uses = new Map<string, ObsidianUse>();
	for (const sf of program.getSourceFiles()) {
		if (!include(sf.fileName)) continue;
		const visit = (node: ts.Node): void => {
			if (ts.isIdentifier(node) && candidates.has(node.text)) {
				let symbol = checker.getSymbolAtLocation(node);
				if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
				for (const decl of symbol?.declarations ?? []) {
					if (!decl.getSourceFile().fileName.includes(DTS)) continue;
					const owner = ownerName(decl);
					const key = `${owner ?? ""}.${node.text}`;
					if (uses.has(key)) continue;
					const tag = ts.getJSDocTags(decl).find((t) => t.tagName.text === "since");
					const since = tag ? ts.getTextOfJSDocComment(tag.comment)?.trim() : undefined;
					const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
					uses.set(key, { owner, name: node.text, since: since || undefined, where: `${rel(sf.fileName)}:${line}` });
				}
			}
			ts.forEachChild(node, visit);
		};
		visit(sf);
	}
	return [...uses.values()];
}

let cached: ObsidianUse[] | undefined;

/** The Obsidian API used by the plugin's source (tests excluded). */
export function obsidianUses(): ObsidianUse[] {
	if (cached) return cached;
	const mine = new Set(srcSourceFiles(sourceFiles()).map((sf) => sf.fileName));
	cached = obsidianUsesIn(srcProgram(), (f) => mine.has(f));
	return cached;
}

/** -1, 0 or 1 as version `a` is older than, equal to or newer than `b`. */
export function compareVersions(a: string, b: string): number {
	const pa = a.split(".").map(Number);
	const pb = b.split(".").map(Number);
	for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
		const d = (pa[i] ?? 0) - (pb[i] ?? 0);
		if (d !== 0) return Math.sign(d);
	}
	return 0;
}
