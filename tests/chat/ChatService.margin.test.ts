import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ChatService } from "../../src/chat/ChatService";
import { TokenCalibration } from "../../src/chat/calibration";
import { MIN_MARGIN } from "../../src/chat/safetyMargin";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import { SessionManager } from "../../src/sessions/SessionManager";
import type { ChatEvent } from "../../src/chat/turnPrompt";
import { loadDevSamples } from "../fixtures/tokens/samples";
import { CountingServer } from "../support/countingServer";
import { lineArb, messageTextArb } from "../support/scriptTexts";

const NOTE = loadDevSamples()
	.map((s) => s.text.trim())
	.join("\n\n");

function service(server: CountingServer, calibration: TokenCalibration, window: number, onEvent?: (e: ChatEvent) => void): ChatService {
	const sessions = new SessionManager(new MemoryFileStore(), { onWarning: () => undefined });
	return new ChatService({ adapter: server, sessions, model: "m", calibration, settings: { maxPromptTokens: window, reservedResponseTokens: 512 }, onEvent, earlierSources: "yield" });
}

describe("learned safety margin in the engine", () => {
	it("a calibrated model's prompts use more of the window than before calibration, never past it", async () => {
		const window = 4096;
		const server = new CountingServer(window, () => 1.1);
		let fill = 0;
		const chat = service(server, new TokenCalibration(), window, (e) => {
			if (e.type === "prompt") fill = e.estimatedTokens / e.budget;
		});
		const uses: number[] = [];
		const fills: number[] = [];
		for (let turn = 0; turn < 8; turn++) {
			await chat.sendMessage(`Question ${turn} about the note?`, { context: NOTE, contextName: "Note" });
			const last = server.chatRequests[server.chatRequests.length - 1]!;
			uses.push((last.counted + 512) / window);
			fills.push(fill);
		}
		expect(server.requests.every((r) => !r.overflowed)).toBe(true);
		// Before any count: today's margin, a clearly smaller share of the window than once learned.
		expect(uses[0]).toBeLessThan(Math.min(...uses.slice(5)) - 0.02);
		// Learned: the prompt fills its own budget (no double rounding) and the window, within a few percent.
		for (const f of fills.slice(5)) expect(f).toBeGreaterThan(0.97);
		for (const u of uses.slice(5)) {
			expect(u).toBeGreaterThan(0.93);
			expect(u).toBeLessThanOrEqual(1);
		}
	});

	it("after a refusal the model's next prompt is smaller than the refused one, and later turns stay within the widened margin", async () => {
		const window = 4096;
		let ratio = 1;
		const server = new CountingServer(window, () => ratio);
		const calibration = new TokenCalibration();
		const chat = service(server, calibration, window);
		for (let turn = 0; turn < 6; turn++) await chat.sendMessage(`Question ${turn}?`, { context: NOTE });
		const learned = calibration.margin("m").share;
		// A new script in the chat: the server now counts 12% more than learned.
		ratio = 1.12;
		await chat.sendMessage("And now?", { context: NOTE });
		const [failed, retry] = server.chatRequests.slice(-2);
		expect(failed?.overflowed).toBe(true);
		expect(retry?.overflowed).toBe(false);
		expect(retry!.raw).toBeLessThan(failed!.raw);
		expect(calibration.margin("m").share).toBeGreaterThan(learned);
		await chat.sendMessage("Once more?", { context: NOTE });
		const next = server.chatRequests[server.chatRequests.length - 1]!;
		expect(next.overflowed).toBe(false);
		expect(next.raw).toBeLessThan(failed!.raw);
	});
});

/** Ratios the server counts by, request after request: consistent, noisy, or with sudden jumps. */
const ratiosArb = fc.oneof(
	fc.double({ min: 0.7, max: 1.6, noNaN: true }).map((r) => [r]),
	fc.tuple(fc.double({ min: 0.8, max: 1.4, noNaN: true }), fc.array(fc.double({ min: -0.1, max: 0.1, noNaN: true }), { minLength: 1, maxLength: 40 })).map(([r, n]) => n.map((e) => r * (1 + e))),
	fc.array(fc.double({ min: 0.6, max: 2, noNaN: true }), { minLength: 1, maxLength: 40 }),
);

describe("learned safety margin properties", () => {
	it("for any reported counts: the margin keeps its floor, a refused prompt is followed by a smaller one, and the transcript holds", async () => {
		await fc.assert(
			fc.asyncProperty(
				ratiosArb,
				fc.array(fc.record({ text: messageTextArb, note: fc.array(lineArb, { maxLength: 120 }) }), { minLength: 1, maxLength: 8 }),
				fc.constantFrom(1024, 2048, 4096),
				async (ratios, turns, window) => {
					let n = 0;
					const server = new CountingServer(window, () => ratios[n++ % ratios.length]!);
					const calibration = new TokenCalibration();
					const store = new MemoryFileStore();
					const sessions = new SessionManager(store, { onWarning: () => undefined });
					const chat = new ChatService({ adapter: server, sessions, model: "m", calibration, settings: { maxPromptTokens: window, reservedResponseTokens: 256 }, earlierSources: "yield" });
					let sent = 0;
					for (const [k, turn] of turns.entries()) {
						const text = `${k}: ${turn.text}`;
						const before = server.requests.length;
						try {
							await chat.sendMessage(text, { context: turn.note.join("\n") });
							sent++;
						} catch (err) {
							if ((err as { code?: string }).code === "message_too_long") continue;
							sent++;
						}
						expect(calibration.margin("m").share).toBeGreaterThanOrEqual(MIN_MARGIN);
						for (const r of server.requests.slice(before)) expect(r.counted).toBeGreaterThan(0);
						const last = chat.messages[chat.messages.length - 1];
						expect(chat.messages.filter((m) => m.role === "user" && m.content === text)).toHaveLength(1);
						expect(last?.role === "assistant" || last?.content === text).toBe(true);
					}
					// Every refused chat prompt is followed (retry or next turn) by a smaller one.
					const chats = server.chatRequests;
					chats.forEach((r, i) => {
						const next = chats[i + 1];
						if (r.overflowed && next !== undefined) expect(next.raw).toBeLessThan(r.raw);
					});
					// One leading summary at most, the transcript intact, and the same after a reload.
					const live = chat.messages;
					expect(live.slice(1).every((m) => m.role !== "system")).toBe(true);
					expect(live.filter((m) => m.role === "user")).toHaveLength(sent);
					if (chat.sessionId !== undefined) expect((await new SessionManager(store).load(chat.sessionId)).messages).toEqual(live);
				},
			),
			{ numRuns: 60 },
		);
	});
});
