// Watches Discover's renderer for model output (renderUntrustedMarkdown) in tests that count, check
// or hold renders. In the test file:
//   vi.mock("../../src/ui/safeMarkdown", async (original) => (await import("./renderSpy")).spiedSafeMarkdown(original));
// then set `renderSpy.hook` (and clear it after). Embeds inside a render call the real one directly.
import type * as SafeMarkdown from "../../src/ui/safeMarkdown";

type Render = typeof SafeMarkdown.renderUntrustedMarkdown;

export const renderSpy: { hook?: (real: Render, ...args: Parameters<Render>) => Promise<void> } = {};

export async function spiedSafeMarkdown(original: () => Promise<typeof SafeMarkdown>): Promise<typeof SafeMarkdown> {
	const real = await original();
	return {
		...real,
		renderUntrustedMarkdown: (...args: Parameters<Render>) => (renderSpy.hook ? renderSpy.hook(real.renderUntrustedMarkdown, ...args) : real.renderUntrustedMarkdown(...args)),
	};
}
