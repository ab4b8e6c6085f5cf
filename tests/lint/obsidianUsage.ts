// Every Obsidian API src/ uses, found by the type checker (not by import names): classes,
// functions and the members reached through them, with the `@since` obsidian.d.ts gives each.
// The manifest test derives minAppVersion from it; the runtime conformance test checks coverage.
import { join } from "node:path";
import ts from "typescript";
import { rel, ROOT, sourceFiles } from "./sourceGraph";

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

/** The uses in `program`'s files that `include` accepts, one entry per owner and name. */
export function obsidianUsesIn(program: ts.Program, include: (fileName: string) => boolean): ObsidianUse[] {
	const checker = program.getTypeChecker();
	const uses = new Map<string, ObsidianUse>();
	for (const sf of program.getSourceFiles()) {
		if (!include(sf.fileName)) continue;
		const visit = (node: ts.Node): void => {
			if (ts.isIdentifier(node)) {
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
	const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), (p) => ts.sys.readFile(p));
	const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
	const files = sourceFiles().filter((f) => !/\.test\.ts$/.test(f));
	const program = ts.createProgram(files, { ...options, noEmit: true });
	const mine = new Set(files.map((f) => ts.sys.resolvePath(f)));
	cached = obsidianUsesIn(program, (f) => mine.has(ts.sys.resolvePath(f)));
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
