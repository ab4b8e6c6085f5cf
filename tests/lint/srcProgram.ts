// One type-checked program of src/ (tests excluded), built once per module graph and shared by the
// checker-based guards (obsidianUsage.ts, nodeGlobals.ts). Building it and warming its checker is
// most of those tests' time; the engine project runs with `isolate: false`, so files in one worker
// share it. Every src/ file is a module and none declares globals, so a file's identifiers resolve
// the same in this program as in one rooted at that file alone.
import { join } from "node:path";
import ts from "typescript";
import { rel, ROOT, sourceFiles } from "./sourceGraph";

let cached: { program: ts.Program; files: Map<string, ts.SourceFile> } | undefined;

function build(): NonNullable<typeof cached> {
	const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), (p) => ts.sys.readFile(p));
	const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
	const program = ts.createProgram(sourceFiles(), { ...options, noEmit: true });
	const files = new Map(program.getSourceFiles().map((sf) => [ts.sys.resolvePath(sf.fileName), sf]));
	return { program, files };
}

/** The program over every production file of src/, with tsconfig.json's options. */
export function srcProgram(): ts.Program {
	cached ??= build();
	return cached.program;
}

/** `files` as the shared program holds them; throws for a file it lacks (so no file is skipped unseen). */
export function srcSourceFiles(files: string[]): ts.SourceFile[] {
	cached ??= build();
	const { files: held } = cached;
	return files.map((f) => {
		const sf = held.get(ts.sys.resolvePath(f));
		if (!sf) throw new Error(`${rel(f)} is not in the program of src/`);
		return sf;
	});
}
