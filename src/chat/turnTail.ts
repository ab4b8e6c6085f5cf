// This turn's tool calls and results (the "tail" after the person's message), and the stub pass
// that makes room before any conversation text is summarized: older tool results become one-line
// stubs, oldest first, in the history and in the tail alike; only the latest round's results stay.
import { promptMessageCost, type EstimateFn } from "./promptCost";
import { toPromptMessage } from "./promptMessage";
import { fixedCost } from "./recentWindow";
import { isPromptWorthy } from "./transcript";
import { stubOlderResults } from "./toolResults";
import type { ChatMessage, PromptMessage } from "../core/types";

/** The prompt-worthy messages after the person's message at `at`: this turn's calls and results. */
export function turnTail(messages: readonly ChatMessage[], at: number): PromptMessage[] {
	if (at < 0) return [];
	const out: PromptMessage[] = [];
	for (let i = at + 1; i < messages.length; i++) {
		const m = messages[i];
		if (m !== undefined && isPromptWorthy(m) && m.role !== "user") out.push(toPromptMessage(m));
	}
	return out;
}

/** Where the latest round begins: its assistant message with calls (the tail's length when none). */
function latestRoundStart(tail: readonly PromptMessage[]): number {
	for (let i = tail.length - 1; i >= 0; i--) if ((tail[i]?.toolCalls?.length ?? 0) > 0) return i;
	return tail.length;
}

/** Rounds (an assistant message with calls, then its results) as index ranges, oldest first. */
function roundStarts(tail: readonly PromptMessage[]): number[] {
	const starts: number[] = [];
	tail.forEach((m, i) => {
		if (m.role !== "tool") starts.push(i);
	});
	return starts;
}

export interface TurnMessages<T extends PromptMessage> {
	history: T[];
	after: PromptMessage[];
	/** Estimated tokens of `after`. */
	afterCost: number;
}

export interface TurnMessagesInput<T extends PromptMessage> {
	history: readonly T[];
	tail: readonly PromptMessage[];
	systemPrompt: string;
	previousSummary: string | undefined;
	current: string;
	budget: number;
	estimate: EstimateFn;
}

/**
 * The history and this turn's tail, made to fit `budget` by stubbing older tool results (oldest
 * first, the latest round's kept) before compaction summarizes anything. When the tail still
 * cannot fit beside the instructions and the message, its oldest rounds are left out whole (a
 * call never without its results), then all of it: the budget is never exceeded.
 */
export function fitTurnMessages<T extends PromptMessage>(input: TurnMessagesInput<T>): TurnMessages<T> {
	const { estimate, budget } = input;
	const cost = (ms: readonly PromptMessage[]): number => ms.reduce((sum, m) => sum + promptMessageCost(m, estimate), 0);
	const keepLast = input.tail.slice(latestRoundStart(input.tail)).filter((m) => m.role === "tool").length;
	const total = fixedCost(input.systemPrompt, input.previousSummary, input.current, estimate) + cost(input.history) + cost(input.tail);
	let history: T[] = [...input.history];
	let after: PromptMessage[] = [...input.tail];
	if (total > budget) {
		const stubbed = stubOlderResults<PromptMessage>([input.history, input.tail], keepLast, total - budget, estimate);
		history = stubbed.parts[0] as T[];
		after = stubbed.parts[1] ?? [];
	}
	const room = budget - fixedCost(input.systemPrompt, undefined, input.current, estimate);
	let afterCost = cost(after);
	while (afterCost > room && after.length > 0) {
		const starts = roundStarts(after);
		// Leave out the oldest round whole; when one round is all there is, the tail goes.
		after = starts.length > 1 ? after.slice(starts[1]) : [];
		afterCost = cost(after);
	}
	return { history, after, afterCost };
}
