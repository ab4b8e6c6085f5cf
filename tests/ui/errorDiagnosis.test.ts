import { describe, expect, it } from "vitest";
import { LLMError } from "../../src/providers/errors";
import { LLM_ERROR_KINDS } from "../../src/core/types";
import { diagnose } from "../../src/ui/panel/errorDiagnosis";

describe("diagnose", () => {
	it("gives every provider error kind a title, and keeps the provider's words", () => {
		for (const kind of LLM_ERROR_KINDS) {
			const d = diagnose(new LLMError(kind, `words from ${kind}`));
			expect(d.title).not.toBe("");
			if (kind !== "aborted") expect(`${d.detail} ${d.said ?? ""}`).toContain(`words from ${kind}`);
		}
	});

	it("asks for a connection check only where the connection can be the cause", () => {
		expect(diagnose(new LLMError("network", "x")).probeConnection).toBe(true);
		expect(diagnose(new LLMError("auth", "x")).probeConnection).toBe(true);
		expect(diagnose(new LLMError("not_found", "x")).probeConnection).toBe(true);
		expect(diagnose(new LLMError("server", "x")).probeConnection).toBe(false);
	});

	it("treats a message the engine refused as unsent, with no Retry", () => {
		const d = diagnose(Object.assign(new Error("Your message is about 9,120 tokens; the most this model can take is 7,680."), { code: "message_too_long" }));
		expect(d).toMatchObject({ title: "Message too long", unsent: true, retryable: false });
		expect(d.detail).toContain("9,120");
	});
});
