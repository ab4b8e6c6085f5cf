// A source's fit as the active note's chip shows it (whole, a share, or none).
import type { SourceFit } from "../../../core/types";
import type { ContextFit } from "../../format";

export function inclusionOf(fit: SourceFit | undefined): ContextFit | undefined {
	if (!fit) return undefined;
	if (fit.fit === "whole") return { included: "whole", fraction: 1 };
	if (fit.fit === "none") return { included: "none", fraction: 0 };
	return { included: "partial", fraction: fit.totalTokens > 0 ? Math.min(1, fit.sentTokens / fit.totalTokens) : 0 };
}
