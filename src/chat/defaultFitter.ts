// The fitter the engine uses when its caller names none: relevance fitting. A source larger than
// its share sends the passages most relevant to the question, in document order, not its first
// pages. Callers that want the old cut from the top pass `topCutFitter`.
import { fitSource } from "../context/relevanceFit";
import type { SourceFitter } from "./sourceFitter";

export const defaultSourceFitter: SourceFitter = fitSource;
