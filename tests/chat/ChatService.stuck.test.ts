import { describe, expect, it } from "vitest";
import { setup, sleep, SMALL, until, words } from "../support/chatHarness";
import { StubAdapter } from "../support/stubAdapter";
import { LLMError } from "../../src/providers/errors";
import { MemoryFileStore } from "../../src/sessions/memoryStore";
import type { GenerateRequest, GenerateResult, LLMAdapter } from "../../src/core/types";

/** The bound the issue names: Stop ends the turn within this, whatever the adapter or store does. */
const STOP_BOUND_MS = 200;

/** A store whose appends to chosen files never settle until released (a stuck disk or sync lock). */
class HangingStore extends MemoryFileStore {
	hang: ((path: string) => boolean) | undefined;
	private readonly held: (() => void)[] = [];

	override append(path: string, data: string): Promise<void> {
		if (this.hang?.(path) !== true) return super.append(path, data);
		return new Promise<void>((resolve) => this.held.push(() => void super.append(path, data).then(resolve)));
	}

	get waiting(): number {
		return this.held.length;
	}

	/** Lets every held append land, late. */
	releaseAll(): void {
		for (const release of this.held.splice(0)) release();
	}
}

/** An adapter whose chat requests never settle; it keeps each request so a test can act late. */
class StuckAdapter implements LLMAdapter {
	readonly requests: GenerateRequest[] = [];
	private readonly resolvers: ((r: GenerateResult) => void)[] = [];
	constructor(private readonly stuck: (req: GenerateRequest) => boolean = () => true) {}

	generate(req: GenerateRequest): Promise<GenerateResult> {
		this.requests.push(req);
		if (!this.stuck(req)) return new StubAdapter().generate(req);
		return new Promise((resolve) => this.resolvers.push(resolve));
	}

	/** Answers every held request now, after the fact. */
	resolveAll(text: string): void {
		for (const resolve of this.resolvers.splice(0)) resolve({ text });
	}
}

async function timeToSettle(work: Promise<unknown>): Promise<number> {
	const start = performance.now();
	await work.catch(() => undefined);
	return performance.now() - start;
}

/** The chat works again at once: a new chat opens and answers. */
async function expectUsableAgain(chat: ReturnType<typeof setup>["chat"], working: LLMAdapter = new StubAdapter({ reply: "Fresh answer" })): Promise<void> {
	expect(chat.busy).toBe(false);
	const opened = chat.newSession();
	expect(await timeToSettle(opened)).toBeLessThan(STOP_BOUND_MS);
	chat.setAdapter(working);
	await expect(chat.sendMessage("Again")).resolves.toMatchObject({ role: "assistant", content: "Fresh answer" });
}

describe("Stop with a stuck adapter or store", () => {
	it("a hung adapter: Stop ends the turn within 200 ms, keeps the question, and the chat is usable at once", async () => {
		const adapter = new StuckAdapter();
		const { chat, sessions } = setup(adapter);
		const turn = chat.sendMessage("Anyone there?");
		await until(() => adapter.requests.length === 1, "the request");
		chat.cancel();
		expect(await timeToSettle(turn)).toBeLessThan(STOP_BOUND_MS);
		await expect(turn).resolves.toMatchObject({ role: "assistant", content: "", cancelled: true });
		const first = chat.sessionId ?? "";
		await expectUsableAgain(chat);
		expect((await sessions.load(first)).messages.map((m) => [m.role, m.content])).toEqual([
			["user", "Anyone there?"],
			["assistant", ""],
		]);
	});

	it("late tokens and a late answer after Stop are ignored: the partial answer is what was shown", async () => {
		let held: GenerateRequest | undefined;
		let finish: ((r: GenerateResult) => void) | undefined;
		const adapter: LLMAdapter = {
			generate: (req) => {
				held = req;
				req.onToken?.("Hello");
				return new Promise((resolve) => (finish = resolve));
			},
		};
		const { chat, sessions, events } = setup(adapter);
		const shown: string[] = [];
		const turn = chat.sendMessage("Say hello", { onToken: (d) => shown.push(d) });
		await until(() => held !== undefined, "the request");
		chat.cancel();
		const answer = await turn;
		const eventsAtStop = events.length;
		// The adapter ignores the abort: more tokens, then a whole answer.
		held?.onToken?.(" world");
		finish?.({ text: "Hello world, and more." });
		await sleep(20);
		expect(shown).toEqual(["Hello"]);
		expect(answer).toMatchObject({ content: "Hello", cancelled: true });
		expect(events.length).toBe(eventsAtStop);
		expect(chat.messages.map((m) => m.content)).toEqual(["Say hello", "Hello"]);
		expect((await sessions.load(chat.sessionId ?? "")).messages.map((m) => m.content)).toEqual(["Say hello", "Hello"]);
	});

	it("a late rejection after Stop is ignored, and the question is not marked failed", async () => {
		let fail: ((err: unknown) => void) | undefined;
		const adapter: LLMAdapter = { generate: () => new Promise((_resolve, reject) => (fail = reject)) };
		const { chat } = setup(adapter);
		const turn = chat.sendMessage("Question");
		await until(() => fail !== undefined, "the request");
		chat.cancel();
		await expect(turn).resolves.toMatchObject({ cancelled: true });
		fail?.(new LLMError("server", "late failure"));
		await sleep(20);
		expect(chat.messages[0]?.error).toBeUndefined();
	});

	it("a hung summary request: Stop ends the turn within 200 ms and the chat is usable at once", async () => {
		const adapter = new StuckAdapter((req) => req.purpose === "summary");
		const { chat } = setup(adapter, SMALL);
		// Turns until one needs a summary, which then never comes.
		let turn: Promise<unknown> = Promise.resolve();
		for (let i = 0; i < 30 && !adapter.requests.some((r) => r.purpose === "summary"); i++) {
			let settled = false;
			turn = chat.sendMessage(`Question ${i}: ${words(60)}`).finally(() => (settled = true));
			await until(() => settled || adapter.requests.some((r) => r.purpose === "summary"), "the turn or a summary request");
		}
		expect(chat.busy).toBe(true);
		chat.cancel();
		expect(await timeToSettle(turn)).toBeLessThan(STOP_BOUND_MS);
		await expect(turn).resolves.toMatchObject({ cancelled: true });
		const requestsAtStop = adapter.requests.length;
		adapter.resolveAll("A late summary.");
		await sleep(20);
		// Nothing more is asked on behalf of the stopped turn, and its late summary is not saved.
		expect(adapter.requests.length).toBe(requestsAtStop);
		expect(chat.messages.some((m) => m.content === "A late summary.")).toBe(false);
		await expectUsableAgain(chat);
	});

	it("a hung store append: Stop ends the turn within 200 ms, another chat works at once, and the late write still lands", async () => {
		const store = new HangingStore();
		const { chat, sessions } = setup(new StubAdapter(), SMALL, store);
		await chat.sendMessage("First");
		const stuckChat = chat.sessionId ?? "";
		store.hang = (path) => path.includes(stuckChat);
		const turn = chat.sendMessage("Second");
		await until(() => store.waiting === 1, "the stuck write");
		chat.cancel();
		expect(await timeToSettle(turn)).toBeLessThan(STOP_BOUND_MS);
		// Not saved as far as anyone knows: nothing was sent, and the text is the caller's again.
		await expect(turn).rejects.toMatchObject({ kind: "aborted" });
		expect(chat.messages.map((m) => m.content)).toEqual(["First", "Answer 1."]);
		await expectUsableAgain(chat);
		const fresh = chat.sessionId ?? "";
		// The store recovers: the abandoned write lands in its own chat, and nothing is lost or replaced.
		store.releaseAll();
		await until(() => store.waiting === 0, "the release");
		expect((await sessions.load(stuckChat)).messages.map((m) => m.content)).toEqual(["First", "Answer 1.", "Second"]);
		expect((await sessions.load(fresh)).messages.map((m) => m.content)).toEqual(["Again", "Fresh answer"]);
		expect(chat.messages.map((m) => m.content)).toEqual(["Again", "Fresh answer"]);
	});

	it("a hung save of the stopped answer does not hold the turn, and lands once the store recovers", async () => {
		const store = new HangingStore();
		const adapter = new StubAdapter({ hangAfter: "Partial answer" });
		const { chat, sessions } = setup(adapter, SMALL, store);
		const turn = chat.sendMessage("Question", {
			onToken: () => {
				const id = chat.sessionId ?? "";
				store.hang = (path) => path.includes(id);
			},
		});
		await until(() => store.hang !== undefined, "the first token");
		chat.cancel();
		expect(await timeToSettle(turn)).toBeLessThan(STOP_BOUND_MS);
		const stopped = await turn;
		expect(stopped).toMatchObject({ cancelled: true });
		const stuckChat = chat.sessionId ?? "";
		await expectUsableAgain(chat);
		store.releaseAll();
		await chat.flush();
		expect((await sessions.load(stuckChat)).messages.map((m) => [m.content, m.cancelled])).toEqual([
			["Question", undefined],
			[stopped.content, true],
		]);
	});

	it("a send whose signal is already aborted records nothing and calls nothing", async () => {
		const adapter = new StubAdapter();
		const { chat, store, events } = setup(adapter);
		const controller = new AbortController();
		controller.abort();
		await expect(chat.sendMessage("Never sent", { signal: controller.signal })).rejects.toMatchObject({ kind: "aborted" });
		expect(adapter.requests).toHaveLength(0);
		expect(store.files.size).toBe(0);
		expect(chat.messages).toHaveLength(0);
		expect(events).toHaveLength(0);
		expect(chat.busy).toBe(false);
	});

	it.each([
		["undefined", undefined],
		["a result without text", {}],
		["a number as text", { text: 42 }],
	])("an adapter that returns %s is a protocol error, not a TypeError", async (_name, result) => {
		const adapter: LLMAdapter = { generate: () => Promise.resolve(result as unknown as GenerateResult) };
		const { chat } = setup(adapter);
		const err = await chat.sendMessage("Hi").catch((e: unknown) => e);
		expect(err).toMatchObject({ kind: "protocol" });
		expect(err).not.toBeInstanceOf(TypeError);
		expect(chat.messages[0]).toMatchObject({ content: "Hi", error: "The request failed (protocol)." });
	});
});
