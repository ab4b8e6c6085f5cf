// Tokens of a run of requests, summed: each request's count is the server's when it reported one,
// else the engine's estimate, and the tally remembers whether every count was reported. The
// answer's meter keeps one for the chat requests and one for the summary requests of a turn.
import type { Usage } from "../core/types";

const counted = (n: number | undefined): n is number => typeof n === "number" && Number.isFinite(n) && n >= 0;

export class TokenTally {
	requests = 0;
	promptTokens = 0;
	answerTokens = 0;
	promptReported = true;
	answerReported = true;
	/** Prompt tokens the server said it read from its cache; undefined while no request said. */
	cachedPromptTokens: number | undefined;
	/** Prompt tokens the server said it wrote to its cache (Anthropic); undefined while no request said. */
	cacheWriteTokens: number | undefined;

	/** Adds one request: `usage` as the server gave it (if at all), the estimates for what it left out. */
	add(usage: Usage | undefined, estimatedPrompt: number, estimatedAnswer: number): void {
		this.requests++;
		const prompt = usage?.promptTokens;
		const answer = usage?.completionTokens;
		// A count of 0 for a prompt is no count: some servers send zeros when they measured nothing.
		const promptKnown = counted(prompt) && prompt > 0;
		this.promptTokens += promptKnown ? prompt : estimatedPrompt;
		this.promptReported &&= promptKnown;
		this.answerTokens += counted(answer) ? answer : estimatedAnswer;
		this.answerReported &&= counted(answer);
		// Parts of a counted prompt only: a cached part of an estimate would be a guess.
		if (promptKnown && counted(usage?.cachedPromptTokens)) this.cachedPromptTokens = (this.cachedPromptTokens ?? 0) + Math.min(usage.cachedPromptTokens, prompt);
		if (promptKnown && counted(usage?.cacheWriteTokens)) this.cacheWriteTokens = (this.cacheWriteTokens ?? 0) + Math.min(usage.cacheWriteTokens, prompt);
	}
}
