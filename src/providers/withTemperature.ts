// An adapter whose chat requests carry a temperature (an agent's) the chat engine does not know about:
// every other member is the adapter's own (the wrapper inherits from it), so listing models,
// diagnosing and redacting behave as before.
import type { GenerateRequest, GenerateResult, LLMAdapter } from "../core/types";

export function withTemperature<A extends LLMAdapter>(adapter: A, temperature: () => number | undefined): A {
	const wrapped = Object.create(adapter) as A;
	wrapped.generate = (req: GenerateRequest): Promise<GenerateResult> => {
		// Summaries keep the server's default: they must restate, not invent.
		const t = req.purpose === "chat" ? temperature() : undefined;
		return adapter.generate(t === undefined || req.temperature !== undefined ? req : { ...req, temperature: t });
	};
	return wrapped;
}
