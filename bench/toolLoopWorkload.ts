// The tool loop's own cost per round, with a stub model that answers at once and a tool that
// returns at once: saving the answer with its call and the result, permission, fitting the result
// to its share, and rebuilding the prompt. Bundled by bench/toolLoop.ts, as main.js ships.
import { ChatService, MemoryFileStore, SessionManager } from "../src/headless";
import type { GenerateResult, LLMAdapter, Tool } from "../src/headless";
import { stats } from "./stats";

const ROUNDS = 8;
const TURNS = 40;
const SETTINGS = { maxPromptTokens: 32_768, reservedResponseTokens: 1024, recentMessagesToKeep: 40, minRecentMessagesToKeep: 4, systemPrompt: "Be brief.", maxToolRounds: ROUNDS };
const RESULT = Array.from({ length: 40 }, (_, i) => `Line ${i} of the note, with a few words about the plan.`).join("\n");

/** A model that calls `read_note` `rounds` times, then answers; no delay at all. */
function stubModel(rounds: number): LLMAdapter & { reset(): void } {
	let n = 0;
	return {
		reset: () => {
			n = 0;
		},
		generate: (req): Promise<GenerateResult> => {
			if (req.purpose === "summary") return Promise.resolve({ text: "Summary." });
			const i = n++;
			if (i < rounds) return Promise.resolve({ text: "", toolCalls: [{ id: `c${i}-${Math.random().toString(36).slice(2)}`, name: "read_note", arguments: { path: `Notes/N${i}.md` } }] });
			req.onToken?.("The answer.");
			return Promise.resolve({ text: "The answer." });
		},
	};
}

const tool: Tool = { name: "read_note", description: "Reads a note.", parameters: { type: "object" }, access: "read", run: () => Promise.resolve(RESULT) };

async function turnTimes(rounds: number, history: number): Promise<number[]> {
	const model = stubModel(rounds);
	const plain = stubModel(0);
	const chat = new ChatService({ adapter: plain, sessions: new SessionManager(new MemoryFileStore(), { onWarning: () => undefined }), settings: SETTINGS, tools: [tool] });
	const times: number[] = [];
	for (let t = 0; t < TURNS; t++) {
		// A new chat of `history` plain turns each time: the loop rebuilds the prompt over it every round.
		await chat.newSession();
		chat.setAdapter(plain);
		for (let i = 0; i < history; i++) {
			plain.reset();
			await chat.sendMessage(`Earlier question ${i}`);
		}
		chat.setAdapter(model);
		model.reset();
		const started = performance.now();
		await chat.sendMessage(`Question ${t}`, { tools: rounds > 0 });
		times.push(performance.now() - started);
	}
	return times;
}

export async function runToolLoopTables(): Promise<string> {
	const rows: string[] = [];
	let worst = 0;
	for (const history of [0, 20]) {
		const bare = stats(await turnTimes(0, history));
		const looped = stats(await turnTimes(ROUNDS, history));
		const perRound = Math.max(0, (looped.median - bare.median) / ROUNDS);
		worst = Math.max(worst, perRound);
		rows.push(`| ${history} | ${bare.median.toFixed(2)} | ${looped.median.toFixed(2)} | ${looped.p95.toFixed(2)} | ${perRound.toFixed(3)} |`);
	}
	return [
		`A turn of ${ROUNDS} tool rounds against a turn without tools; the model and the tool answer at once, so the difference is the loop's own work (median of ${TURNS} turns).`,
		"",
		"| earlier turns | turn without tools (ms) | turn with 8 rounds (ms) | p95 (ms) | overhead per round (ms) |",
		"|---:|---:|---:|---:|---:|",
		...rows,
		"",
		`Overhead per round: ${worst.toFixed(3)} ms (target under 2 ms: ${worst < 2 ? "met" : "NOT met"}).`,
	].join("\n");
}
