// The fitter the engine uses when its caller names none. One line, so relevance fitting
// (src/context/relevanceFit.ts's `fitSource`) replaces cutting from the top by changing it.
import type { SourceFitter } from "./sourceFitter";
import { topCutFitter } from "./topCutFitter";

export const defaultSourceFitter: SourceFitter = topCutFitter;
