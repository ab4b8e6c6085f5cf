import type { GenerateRequest, GenerateResult, LLMAdapter } from "../../src/core/types";
import { LLMError } from "../../src/providers/errors";

/**
 * An adapter the test drives by hand: `token()` streams a piece, `finish()` ends the answer,
 * `fail()` ends it with an error; never calling either is a turn that never completes (a crash).
 */
export class ManualAdapter implements LLMAdapter {
	private request: GenerateRequest | undefined;
	private settle: { resolve: (r: GenerateResult) => void; reject: (err: unknown) => void } | undefined;
	readonly requests: GenerateRequest[] = [];

	get streaming(): boolean {
		return this.settle !== undefined;
	}

	generate(req: GenerateRequest): Promise<GenerateResult> {
		this.requests.push(req);
		this.request = req;
		return new Promise((resolve, reject) => {
			this.settle = { resolve, reject };
			const abort = (): void => {
				this.settle = undefined;
				reject(new LLMError("aborted", "The request was stopped."));
			};
			if (req.signal?.aborted === true) abort();
			else req.signal?.addEventListener("abort", abort, { once: true });
		});
	}

	token(text: string): void {
		if (this.settle === undefined) throw new Error("No answer is streaming.");
		this.request?.onToken?.(text);
	}

	think(text: string): void {
		if (this.settle === undefined) throw new Error("No answer is streaming.");
		this.request?.onThinking?.(text);
	}

	finish(text = ""): void {
		this.settle?.resolve({ text });
		this.settle = undefined;
	}

	fail(kind: "network" | "server" = "network"): void {
		this.settle?.reject(new LLMError(kind, "The connection dropped."));
		this.settle = undefined;
	}
}
