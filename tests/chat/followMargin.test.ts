import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenCalibration } from "../../src/chat/calibration";
import { ChatService } from "../../src/chat/ChatService";
import { compactionBudget } from "../../src/chat/compaction";
import { fitFollow } from "../../src/chat/followMargin";
import { MAX_MARGIN, MIN_MARGIN } from "../../src/chat/safetyMargin";
import { SCRIPT_GROUP_COUNT } from "../../src/chat/tokenFast";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import { loadDevSamples } from "../fixtures/tokens/samples";
import { CountingServer } from "../support/countingServer";

const RAW = 3000;
/** A prompt's split with everything in one group: the per-script fit is then one factor. */
const GROUPS = [RAW, ...new Array<number>(SCRIPT_GROUP_COUNT - 1).fill(0)];

/** `turns` counted prompts in chat `chat`, the server counting (1 + offset) times the estimate, give or take 0.2%. */
function chatTurns(cal: TokenCalibration, chat: string, offset: number, turns: number): void {
	for (let t = 0; t < turns; t++) cal.observe("m", RAW, Math.round(RAW * (1 + offset) * (1 + (t % 2 === 0 ? 0.002 : -0.002))), GROUPS, chat);
}

/** Chats whose costs differ from one another (the note) but hold within each chat. */
function chatsThatRepeatTheirError(cal: TokenCalibration): void {
	const offsets = [0.05, -0.03, 0.02, -0.05, 0.04, -0.02];
	offsets.forEach((offset, i) => chatTurns(cal, `chat ${i}`, offset, 6));
}

describe("margin that follows the chat", () => {
	it("a prompt after a counted one in the same chat carries that prompt's error: wider after a prompt that ran high", () => {
		const high = new TokenCalibration();
		chatsThatRepeatTheirError(high);
		chatTurns(high, "last", 0.05, 3);
		const low = new TokenCalibration();
		chatsThatRepeatTheirError(low);
		chatTurns(low, "last", -0.05, 3);
		expect(high.margin("m", "last").share).toBeGreaterThan(low.margin("m", "last").share + 0.03);
	});

	it("when errors repeat within chats, the next prompt of a chat gets a smaller margin than a new chat's first prompt", () => {
		const cal = new TokenCalibration();
		chatsThatRepeatTheirError(cal);
		chatTurns(cal, "last", -0.01, 3);
		const following = cal.margin("m", "last").share;
		const first = cal.margin("m", "a new chat").share;
		expect(following).toBeLessThan(first - 0.03);
		// Without a chat the engine cannot say the prompt follows: the first prompt's margin.
		expect(cal.margin("m")).toEqual(cal.margin("m", "a new chat"));
		expect(following).toBeGreaterThanOrEqual(MIN_MARGIN);
	});

	it("learns the share carried from the model's own pairs: none when one prompt's error says nothing of the next", () => {
		// Errors that alternate in sign from prompt to prompt within each chat.
		const ratios = Array.from({ length: 30 }, (_, i) => 1 + (i % 2 === 0 ? 0.03 : -0.03));
		const follows = ratios.map((_, i) => i % 10 !== 0);
		expect(fitFollow(ratios, follows)?.rho).toBe(0);
		// Errors that hold within each chat of ten.
		const held = Array.from({ length: 30 }, (_, i) => 1 + [0.08, -0.06, 0.07][Math.floor(i / 10)]!);
		expect(fitFollow(held, follows)?.rho).toBeGreaterThan(0.9);
		// Too few pairs: nothing is carried yet.
		expect(fitFollow(held.slice(0, 4), follows)).toBeUndefined();
	});

	it("a reload keeps which observations followed one another, and a chat's next prompt after it is taken as a first prompt", () => {
		const saved: unknown[] = [];
		const cal = new TokenCalibration({ onChange: (data) => saved.push(JSON.parse(JSON.stringify(data))) });
		chatsThatRepeatTheirError(cal);
		chatTurns(cal, "last", -0.01, 3);
		const data = saved[saved.length - 1] as { scripts: Record<string, { follows?: boolean }[]> };
		expect(data.scripts.m!.filter((o) => o.follows === true).length).toBeGreaterThan(20);
		const restored = TokenCalibration.fromJSON(data);
		expect(restored.margin("m", "last")).toEqual(cal.margin("m", "a new chat"));
		// The chain goes on from the next counted prompt.
		chatTurns(restored, "last", -0.01, 1);
		chatTurns(cal, "last", -0.01, 1);
		expect(restored.margin("m", "last").share).toBeLessThan(restored.margin("m", "a new chat").share);
	});

	it("a refusal widens the chat's margin past the one its prompt was sent with", () => {
		const cal = new TokenCalibration();
		chatsThatRepeatTheirError(cal);
		chatTurns(cal, "last", 0.05, 3);
		const sentWith = cal.margin("m", "last");
		// Sent at the most that margin allowed; the server's count is not given.
		cal.surprise("m", 3000, undefined, "last");
		expect(cal.margin("m", "last").share).toBeGreaterThan(sentWith.share);
	});

	it("for any chats and counts: the margin keeps its floor and cap, in the chat and out of it", () => {
		const turn = fc.record({ newChat: fc.boolean(), ratio: fc.double({ min: 0.6, max: 2, noNaN: true }) });
		fc.assert(
			fc.property(fc.array(turn, { minLength: 1, maxLength: 60 }), (turns) => {
				const cal = new TokenCalibration();
				let chat = 0;
				for (const t of turns) {
					if (t.newChat) chat++;
					cal.observe("m", RAW, Math.round(RAW * t.ratio), GROUPS, `chat ${chat}`);
					for (const share of [cal.margin("m", `chat ${chat}`).share, cal.margin("m", "other").share]) {
						expect(share).toBeGreaterThanOrEqual(MIN_MARGIN);
						expect(share).toBeLessThanOrEqual(MAX_MARGIN);
					}
				}
			}),
			{ numRuns: 60 },
		);
	});
});

describe("margin that follows the chat, in the engine", () => {
	it("each turn's budget is the margin of its own chat, the one the last counted prompt was in", async () => {
		const note = loadDevSamples()
			.map((s) => s.text.trim())
			.join("\n\n");
		const window = 4096;
		const settings = { maxPromptTokens: window, reservedResponseTokens: 512 };
		// Chats differ in what the server counts (their notes), and hold within a chat.
		let offset = 0;
		const server = new CountingServer(window, () => 1 + offset);
		const calibration = new TokenCalibration();
		const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
		const budgets: number[] = [];
		const chat = new ChatService({
			adapter: server,
			sessions,
			model: "m",
			calibration,
			settings,
			onEvent: (e) => {
				if (e.type === "prompt") budgets.push(e.budget);
			},
		});
		const expected: number[] = [];
		const firstPrompt: number[] = [];
		for (const [i, o] of [0.04, -0.03, 0.03, -0.04].entries()) {
			offset = o;
			if (i > 0) await chat.newSession();
			for (let t = 0; t < 5; t++) {
				expected.push(compactionBudget(settings, calibration.margin("m", chat.sessionId).keep).prompt);
				firstPrompt.push(compactionBudget(settings, calibration.margin("m", "a new chat").keep).prompt);
				await chat.sendMessage(`Question ${t} about the note?`, { context: note, contextName: "Note" });
			}
		}
		expect(server.requests.every((r) => !r.overflowed)).toBe(true);
		expect(budgets).toEqual(expected);
		// The last chat's counts run low: its later prompts get more room than a new chat's first would.
		for (let turn = expected.length - 3; turn < expected.length; turn++) expect(expected[turn]).toBeGreaterThan(firstPrompt[turn]!);
	});
});
