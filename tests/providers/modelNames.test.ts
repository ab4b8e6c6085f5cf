// Whether a server's list holds a model named as a person wrote it (settings, an agent note):
// lenient, since it only warns early and must never call a usable name unknown.
import { describe, expect, it } from "vitest";
import { offersModel } from "../../src/providers/modelNames";

const list = (...ids: string[]) => ids.map((id) => ({ id }));

describe("offersModel", () => {
	it("an Ollama name without a tag is the `:latest` one, both ways, whatever the case", () => {
		expect(offersModel("ollama", list("llama3:latest"), "llama3")).toBe(true);
		expect(offersModel("ollama", list("llama3"), "llama3:latest")).toBe(true);
		expect(offersModel("ollama", list("Llama3:latest"), "llama3")).toBe(true);
		expect(offersModel("ollama", list("llama3:latest"), "llama3:8b")).toBe(false);
		expect(offersModel("ollama", list("llama3.2:latest"), "llama3")).toBe(false);
	});

	it("OpenAI-compatible servers (often Ollama or LM Studio underneath) match the same way", () => {
		expect(offersModel("openai", list("gpt-4o", "llama3:latest"), "llama3")).toBe(true);
		expect(offersModel("openai", list("gpt-4o"), "gpt-4o")).toBe(true);
		expect(offersModel("openai", list("gpt-4o"), "gpt-5-nope")).toBe(false);
	});

	it("Anthropic aliases that are not listed (without the date, -latest, -0) match their dated ids", () => {
		const models = list("claude-sonnet-4-5-20250929", "claude-3-7-sonnet-20250219", "claude-opus-4-20250514");
		expect(offersModel("anthropic", models, "claude-sonnet-4-5")).toBe(true);
		expect(offersModel("anthropic", models, "claude-3-7-sonnet-latest")).toBe(true);
		expect(offersModel("anthropic", models, "claude-opus-4-0")).toBe(true);
		expect(offersModel("anthropic", models, "claude-haiku-9")).toBe(false);
	});

	it("an empty name is never offered", () => {
		expect(offersModel("ollama", list("llama3"), " ")).toBe(false);
	});
});
