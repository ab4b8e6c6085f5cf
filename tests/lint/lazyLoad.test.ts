// What main.js must not run when it loads (bench/pluginLoad.ts measures the load): marked's module,
// which builds its regex grammar when it runs, is required on first use only; the token estimator's
// class table as a value (tokenClassTable.ts) is for tests and scripts, the plugin builds it on the
// first estimate (tokenClasses.ts).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileImports, reachableFrom, rel, ROOT, sourceFiles } from "./sourceGraph";

const MAIN = join(ROOT, "src/main.ts");

describe("the plugin's load", () => {
	it("imports marked only as types; only the model lexer requires it, on first use", () => {
		const uses = sourceFiles().flatMap((file) => fileImports(file).filter((ref) => ref.specifier === "marked" && ref.kind !== "type").map((ref) => `${rel(file)} ${ref.kind}`));
		expect(uses).toEqual(["src/ui/markdown/modelLexer.ts require"]);
	});

	it("never reaches the eagerly built class table", () => {
		const reached = reachableFrom([MAIN], ["static", "dynamic", "require"]);
		const chains = [...reached].filter(([file]) => rel(file) === "src/chat/tokenClassTable.ts").map(([, chain]) => chain.join(" → "));
		expect(chains).toEqual([]);
		// The check can see the estimator at all: the engine reaches tokenClasses.ts.
		expect([...reached.keys()].map(rel)).toContain("src/chat/tokenClasses.ts");
	});
});
