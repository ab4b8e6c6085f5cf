import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { editMessage, proposalFrom } from "../../src/editor/editPrompt";

describe("the edit's prompt and answer", () => {
	it("sends the instruction and the whole selection between markers", () => {
		expect(editMessage(" tighten this ", "A\nB\n", "Notes/Plan.md")).toBe("Instruction: tighten this\n\nNote: Notes/Plan.md\n\n<selection>\nA\nB\n\n</selection>");
	});

	it("takes a fence or the markers off the answer, and keeps the selection's final line break", () => {
		expect(proposalFrom("```markdown\nThe slow fox.\n```", "The quick fox.\n")).toBe("The slow fox.\n");
		expect(proposalFrom("<selection>\nThe slow fox.\n</selection>", "The quick fox.")).toBe("The slow fox.");
		expect(proposalFrom("The slow fox.\n\n", "The quick fox.")).toBe("The slow fox.");
		// A selection that is itself a code block keeps its fence.
		expect(proposalFrom("```js\nlet b = 2;\n```\n", "```js\nlet a = 1;\n```\n")).toBe("```js\nlet b = 2;\n```\n");
	});

	it("leaves a plain answer as it is (but for trailing space)", () => {
		fc.assert(
			fc.property(fc.string().filter((s) => !/^\s|\s$|```|~~~|<selection>/.test(s)), (answer) => {
				expect(proposalFrom(answer, "x")).toBe(answer);
			}),
		);
	});
});
