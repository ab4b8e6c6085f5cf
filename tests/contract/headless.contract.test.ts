// The public headless contract (src/headless.ts), written out as its users call it: names and
// signatures may grow, never break.
// Scripts, benchmarks and acceptance tests outside this repo import exactly these names: this file
// fails to typecheck (npm test runs tsc over tests/) or to run when one of them breaks.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as headless from "../../src/headless";
import {
	ChatService,
	DEFAULT_SETTINGS,
	NodeFileStore,
	SessionManager,
	createAdapter,
	estimateTokens,
	type ChatMessage,
	type ChatSettings,
	type FileStore,
	type LLMAdapter,
	type LLMErrorKind,
	type PromptMessage,
	type Session,
} from "../../src/headless";

// --- The signatures, as the issue states them ---------------------------------------------------
type ContractGenerate = (req: {
	purpose: "chat" | "summary";
	messages: PromptMessage[];
	maxTokens: number;
	contextWindow: number;
	signal?: AbortSignal;
	onToken?: (delta: string) => void;
}) => Promise<{ text: string; usage?: { promptTokens?: number; completionTokens?: number } }>;

interface ContractChatService {
	newSession(): Promise<Session>;
	loadSession(id: string): Promise<Session>;
	sendMessage(
		text: string,
		opts?: { context?: string; includeHistory?: boolean; signal?: AbortSignal; onToken?: (delta: string) => void },
	): Promise<ChatMessage>;
	cancel(): void;
	checkpointNow(): Promise<void>;
	readonly sessionId: string | undefined;
	readonly messages: readonly ChatMessage[];
}

type ContractMessage = {
	id: string;
	role: "system" | "user" | "assistant" | "tool";
	content: string;
	createdAt: string;
	cancelled?: boolean;
	interrupted?: boolean;
	error?: string;
};
type ContractSession = { id: string; title: string; createdAt: string; updatedAt: string; messages: ChatMessage[] };

// Type-level checks: each line fails `tsc` if the surface drifts from the contract.
const checkEstimate: (text: string) => number = estimateTokens;
const checkGenerate: ContractGenerate = null as unknown as LLMAdapter["generate"];
const checkMessage: ContractMessage = null as unknown as ChatMessage;
const checkSession: ContractSession = null as unknown as Session;
const checkKinds: LLMErrorKind[] = ["context_overflow", "rate_limit", "auth", "not_found", "bad_request", "server", "network", "protocol", "aborted"];
const checkSettings: Pick<ChatSettings, "maxPromptTokens" | "reservedResponseTokens" | "recentMessagesToKeep" | "minRecentMessagesToKeep"> =
	DEFAULT_SETTINGS;
type ServiceCtor = new (opts: { adapter: LLMAdapter; sessions: SessionManager; settings?: Partial<ChatSettings> }) => ContractChatService;
const checkCtor: ServiceCtor = ChatService;
type ManagerCtor = new (store: FileStore) => SessionManager;
const checkManager: ManagerCtor = SessionManager;
const checkNodeStore: new (rootDir: string) => FileStore = NodeFileStore;
// A model's thinking, streamed and saved apart from the answer.
type ContractThinkingGenerate = (req: { purpose: "chat" | "summary"; messages: PromptMessage[]; maxTokens: number; contextWindow: number; onThinking?: (delta: string) => void }) => Promise<{
	text: string;
	thinking?: string;
}>;
const checkThinkingGenerate: ContractThinkingGenerate = null as unknown as LLMAdapter["generate"];
const checkThinkingMessage: { thinking?: string } = null as unknown as ChatMessage;
const checkThinkingSend: (text: string, opts?: { onThinking?: (delta: string) => void }) => Promise<ChatMessage> = null as unknown as ChatService["sendMessage"];
void [checkEstimate, checkGenerate, checkMessage, checkSession, checkKinds, checkSettings, checkCtor, checkManager, checkNodeStore];
void [checkThinkingGenerate, checkThinkingMessage, checkThinkingSend];
// Context sources sharing one budget, and what each answer was given.
type ContractContextSource = { id: string; name: string; text: string; kind?: "selection" | "note" | "active" | "retrieved" };
type ContractSourceFit = { id: string; name: string; totalTokens: number; sentTokens: number; fit: "whole" | "excerpts" | "none" };
const checkSource: headless.ContextSource = null as unknown as ContractContextSource;
const checkFit: ContractSourceFit = null as unknown as headless.SourceFit;
const checkSourcesSend: (text: string, opts?: { sources?: ContractContextSource[]; context?: string; contextName?: string }) => Promise<ChatMessage> =
	null as unknown as ChatService["sendMessage"];
const checkSourcesMessage: { sources?: ContractSourceFit[] } = null as unknown as ChatMessage;
const checkPreviewFits: { sources: ContractSourceFit[] } = null as unknown as ReturnType<ChatService["previewPrompt"]>;
type ContractFitter = (source: { id: string; name: string; text: string }, budgetTokens: number, query: string, estimate: (text: string) => number) => {
	text: string;
	sentTokens: number;
	totalTokens: number;
	fit: "whole" | "excerpts" | "none";
	passages: { start: number; end: number; headingPath: string }[];
};
const checkFitter: headless.SourceFitter = null as unknown as ContractFitter;
void [checkSource, checkFit, checkSourcesSend, checkSourcesMessage, checkPreviewFits, checkFitter];
// Images: inline base64 on the wire, references in sessions, read by the host's reader for a send.
const checkPromptImages: { images?: { mediaType: string; data: string }[] } = null as unknown as PromptMessage;
const checkImageRefs: { attachments?: { path: string; mediaType: string; width: number; height: number; bytes: number }[] } = null as unknown as ChatMessage;
const checkImageSend: (text: string, opts?: { images?: headless.ImageRef[] }) => Promise<ChatMessage> = null as unknown as ChatService["sendMessage"];
type ImageServiceCtor = new (opts: { adapter: LLMAdapter; sessions: SessionManager; readImage?: (path: string) => Promise<Uint8Array> }) => ContractChatService;
const checkImageCtor: ImageServiceCtor = ChatService;
const checkImageTokens: (image: { width: number; height: number }, rule?: "tiles" | "area" | { perImage: number }) => number = headless.imageTokens;
void [checkPromptImages, checkImageRefs, checkImageSend, checkImageCtor, checkImageTokens];
// The chat's tools switch: saved with the chat (a `tools` record), back as Session.tools; sends and previews follow it.
const checkSetTools: (on: boolean) => Promise<void> = null as unknown as ChatService["setTools"];
const checkToolsOn: boolean = null as unknown as ChatService["toolsOn"];
const checkSaveTools: (id: string, on: boolean) => Promise<void> = null as unknown as SessionManager["setTools"];
const checkSessionTools: { tools?: boolean } = null as unknown as headless.Session;
const checkToolsRecord: { type: "tools"; on: boolean; at: string } = null as unknown as headless.ToolsRecord;
const checkPreviewTools: (draft: string, opts?: { tools?: boolean }) => unknown = null as unknown as ChatService["previewPrompt"];
void [checkSetTools, checkToolsOn, checkSaveTools, checkSessionTools, checkToolsRecord, checkPreviewTools];
// What each answer cost: saved on the answer, summed per chat, priced per million tokens.
type ContractAnswerStats = {
	promptTokens: number;
	answerTokens: number;
	reported: { prompt: boolean; answer: boolean };
	firstTokenMs?: number;
	streamMs?: number;
	durationMs?: number;
	requests: number;
	model: string;
	provider?: string;
};
const checkStats: ContractAnswerStats = null as unknown as headless.AnswerStats;
const checkStatsMessage: { stats?: ContractAnswerStats } = null as unknown as ChatMessage;
const checkUsage: (messages: readonly ChatMessage[]) => { promptTokens: number; answerTokens: number; models: { model: string; promptTokens: number; answerTokens: number }[] } | undefined = headless.chatUsage;
const checkCost: (stats: headless.AnswerStats, prices: readonly { model: string; input: number; output: number }[]) => number | undefined = headless.answerCost;
const checkSummaryUsage: { usage?: headless.ChatUsage } = null as unknown as headless.SessionSummary;
void [checkStats, checkStatsMessage, checkUsage, checkCost, checkSummaryUsage];
// The turn's summary requests (apart from the answer's own counts, in its cost) and refused prompts.
type ContractSummaryStats = { promptTokens: number; answerTokens: number; reported: { prompt: boolean; answer: boolean }; requests: number };
const checkStatsSummary: { summary?: ContractSummaryStats; refused?: number } = null as unknown as headless.AnswerStats;
const checkSummaryStats: ContractSummaryStats = null as unknown as headless.SummaryStats;
const checkBilled: (stats: headless.AnswerStats) => { promptTokens: number; answerTokens: number } = headless.billedTokens;
const checkCompactionCost: { onSummaryRequest?: (cost: { usage: { promptTokens?: number; completionTokens?: number } | undefined; estimatedPrompt: number; estimatedAnswer: number }) => void } = null as unknown as headless.CompactionInput;
void [checkStatsSummary, checkSummaryStats, checkBilled, checkCompactionCost];

// Branches: regenerate, edit, continue, delete a turn, alternatives and branch switches.
type ContractBranching = {
	regenerate(opts?: { signal?: AbortSignal; onToken?: (delta: string) => void }): Promise<ChatMessage>;
	editMessage(id: string, text: string, opts?: { signal?: AbortSignal }): Promise<ChatMessage>;
	continueAnswer(opts?: { signal?: AbortSignal }): Promise<ChatMessage>;
	deleteTurn(id: string): Promise<void>;
	restoreTurn(id: string): Promise<void>;
	alternatives(id: string): Promise<{ ids: string[]; index: number }>;
	switchBranch(id: string): Promise<void>;
	loadSession(id: string, opts?: { at?: string }): Promise<Session>;
};
const checkBranching: ContractBranching = null as unknown as ChatService;
type ContractBranchSessions = {
	load(id: string, opts?: { at?: string }): Promise<Session>;
	switchBranch(sessionId: string, messageId: string): Promise<Session>;
	alternatives(sessionId: string, messageId: string): Promise<headless.Alternatives>;
	setTurnHidden(sessionId: string, messageId: string, hidden: boolean): Promise<Session>;
	hiddenTurns(sessionId: string): Promise<ChatMessage[]>;
};
const checkBranchSessions: ContractBranchSessions = null as unknown as SessionManager;
const checkBranchHit: { leafId?: string; onActiveBranch?: boolean } = null as unknown as headless.SearchHit;
void [checkBranching, checkBranchSessions, checkBranchHit];

describe("the headless contract", () => {
	it("exports every name the issues define", () => {
		for (const name of ["estimateTokens", "ChatService", "SessionManager", "NodeFileStore", "DEFAULT_SETTINGS", "createAdapter", "LLMError"]) {
			expect(headless, name).toHaveProperty(name);
		}
		expect(DEFAULT_SETTINGS).toMatchObject({ maxPromptTokens: 8192, reservedResponseTokens: 512, recentMessagesToKeep: 6, minRecentMessagesToKeep: 2 });
	});

	it("regenerates, edits and switches branches through the public names only; a reload opens the same branch", async () => {
		const dir = await mkdtemp(join(tmpdir(), "discover-contract-"));
		try {
			let n = 0;
			const seen: PromptMessage[][] = [];
			const adapter: LLMAdapter = {
				generate(req) {
					seen.push(req.messages);
					return Promise.resolve({ text: req.purpose === "summary" ? "Summary." : `Answer ${++n}` });
				},
			};
			const sessions = new SessionManager(new NodeFileStore(dir));
			const chat = new ChatService({ adapter, sessions, settings: { maxPromptTokens: 4096 } });
			await chat.sendMessage("First?");
			const old = await chat.sendMessage("Second?");
			const again = await chat.regenerate();
			expect(await chat.alternatives(again.id)).toEqual({ ids: [old.id, again.id], index: 1 });
			await chat.editMessage(chat.messages[0]!.id, "First, edited?");
			expect(seen[seen.length - 1]?.filter((m) => m.role !== "system")).toEqual([{ role: "user", content: "First, edited?" }]);
			const [hit] = await sessions.search("Second?");
			expect(hit?.onActiveBranch).toBe(false);
			const reopened = new ChatService({ adapter, sessions: new SessionManager(new NodeFileStore(dir)) });
			await reopened.loadSession(chat.sessionId!, { at: hit!.messageId });
			expect(reopened.messages.map((m) => m.content)).toEqual(["First?", "Answer 1", "Second?", "Answer 3"]);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});

	it("runs a chat through the public names only, on disk, and reloads it", async () => {
		const dir = await mkdtemp(join(tmpdir(), "discover-contract-"));
		try {
			const seen: PromptMessage[][] = [];
			const adapter: LLMAdapter = {
				generate(req) {
					seen.push(req.messages);
					const text = req.purpose === "summary" ? "Summary." : `Answer ${seen.length}`;
					req.onToken?.(text);
					return Promise.resolve({ text, usage: { promptTokens: 10, completionTokens: 2 } });
				},
			};
			const sessions = new SessionManager(new NodeFileStore(dir));
			const chat = new ChatService({ adapter, sessions, settings: { maxPromptTokens: 4096 } });
			const session = await chat.newSession();
			const tokens: string[] = [];
			const answer = await chat.sendMessage("What is in the note?", { context: "The note says hello.", onToken: (d) => tokens.push(d) });

			expect(answer.role).toBe("assistant");
			expect(tokens.join("")).toBe(answer.content);
			expect(chat.sessionId).toBe(session.id);
			expect(chat.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
			const sent = seen[0] ?? [];
			expect(sent.filter((m) => m.content.includes("What is in the note?"))).toHaveLength(1);
			// Last: the message, after this turn's sources (they ride with the latest message).
			expect(sent[sent.length - 1]?.role).toBe("user");
			expect(sent[sent.length - 1]?.content.endsWith("\n\nWhat is in the note?")).toBe(true);

			const reopened = new ChatService({ adapter, sessions: new SessionManager(new NodeFileStore(dir)) });
			const loaded = await reopened.loadSession(session.id);
			expect(loaded.messages.map((m) => m.content)).toEqual(["What is in the note?", answer.content]);
			reopened.cancel(); // idle: does nothing
			expect(reopened.messages).toHaveLength(2);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});

	it("a model's thinking streams to onThinking, is saved as ChatMessage.thinking, and is never sent back", async () => {
		const seen: PromptMessage[][] = [];
		const adapter: LLMAdapter = {
			generate(req) {
				seen.push(req.messages);
				req.onThinking?.("Pondering.");
				req.onToken?.("Answer.");
				return Promise.resolve({ text: "Answer.", thinking: "Pondering." });
			},
		};
		const chat = new ChatService({ adapter, sessions: new SessionManager(new headless.MemoryFileStore()) });
		const thought: string[] = [];
		const answer = await chat.sendMessage("First?", { onThinking: (d) => thought.push(d) });
		expect(thought).toEqual(["Pondering."]);
		expect(answer.thinking).toBe("Pondering.");
		await chat.sendMessage("Second?");
		expect(JSON.stringify(seen[1])).not.toContain("Pondering.");
	});

	it("sources share the budget, are reported on the answer, and survive a reload from disk", async () => {
		const dir = await mkdtemp(join(tmpdir(), "discover-contract-"));
		try {
			const seen: PromptMessage[][] = [];
			const adapter: LLMAdapter = {
				generate(req) {
					seen.push(req.messages);
					return Promise.resolve({ text: "Answer." });
				},
			};
			const sessions = new SessionManager(new NodeFileStore(dir));
			const chat = new ChatService({ adapter, sessions, settings: { maxPromptTokens: 4096 } });
			const sources: headless.ContextSource[] = [
				{ id: "Notes/Plan.md", name: "Plan", text: "The plan is to ship in May." },
				{ id: "selection", name: "Selection", text: "ship in May", kind: "selection" },
			];
			expect(chat.previewPrompt("When?", { sources }).sources.map((f) => f.fit)).toEqual(["whole", "whole"]);
			const answer = await chat.sendMessage("When do we ship?", { sources });
			expect(answer.sources?.map((f) => [f.id, f.fit])).toEqual([
				["selection", "whole"],
				["Notes/Plan.md", "whole"],
			]);
			const request = seen[0] ?? [];
			expect(request[request.length - 1]?.content).toContain("The plan is to ship in May.");
			const loaded = await new ChatService({ adapter, sessions: new SessionManager(new NodeFileStore(dir)) }).loadSession(chat.sessionId ?? "");
			expect(loaded.messages[1]?.sources).toEqual(answer.sources);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});

	it("an image attached by reference is read from disk for the send and stays a reference on disk", async () => {
		const dir = await mkdtemp(join(tmpdir(), "discover-images-"));
		try {
			const store = new NodeFileStore(dir);
			await store.mkdir("attachments");
			const bytes = new Uint8Array([255, 216, 255, 224, 0, 16]);
			await store.writeBytes("attachments/photo.jpg", bytes);
			const sent: PromptMessage[][] = [];
			const adapter: LLMAdapter = {
				generate: (req) => {
					sent.push(req.messages);
					return Promise.resolve({ text: "A photo." });
				},
			};
			const chat = new ChatService({ adapter, sessions: new SessionManager(store), readImage: (path) => store.readBytes(path) });
			const image: headless.ImageRef = { path: "attachments/photo.jpg", mediaType: "image/jpeg", width: 4, height: 3, bytes: bytes.length };
			await chat.sendMessage("What is it?", { images: [image] });
			const user = sent[0]?.find((m) => m.role === "user");
			expect(user?.images).toEqual([{ mediaType: "image/jpeg", data: "/9j/4AAQ" }]);
			const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith(".jsonl"));
			const jsonl = (await Promise.all(files.map((f) => readFile(join(dir, f), "utf8")))).join("");
			expect(jsonl).toContain("attachments/photo.jpg");
			expect(jsonl).not.toContain("/9j/4AAQ");
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});

	it("each answer records what it cost, summed per chat and priced per million tokens", async () => {
		let clock = 1_000;
		const adapter: LLMAdapter = {
			generate(req) {
				clock += 300;
				req.onToken?.("Answer.");
				clock += 200;
				return Promise.resolve({ text: "Answer.", usage: { promptTokens: 40, completionTokens: 10 } });
			},
		};
		const chat = new ChatService({ adapter, sessions: new SessionManager(new headless.MemoryFileStore()), model: "m", now: () => clock });
		const answer = await chat.sendMessage("Hi?");
		expect(answer.stats).toEqual({ promptTokens: 40, answerTokens: 10, reported: { prompt: true, answer: true }, firstTokenMs: 300, streamMs: 200, durationMs: 500, requests: 1, model: "m" });
		expect(headless.tokensPerSecond(answer.stats!)).toBe(50);
		expect(headless.chatUsage(chat.messages)).toMatchObject({ promptTokens: 40, answerTokens: 10 });
		expect(headless.answerCost(answer.stats!, [{ model: "m", input: 1_000, output: 2_000 }])).toBeCloseTo(0.06, 10);
	});

	it("adapter errors carry a kind: an unreachable server is a network error", async () => {
		const adapter = createAdapter({ provider: "ollama", baseUrl: "http://127.0.0.1:9", model: "llama3.2" });
		const failure: unknown = await adapter
			.generate({ purpose: "chat", messages: [{ role: "user", content: "hi" }], maxTokens: 16, contextWindow: 2048 })
			.then(() => undefined, (err: unknown) => err);
		expect(failure).toMatchObject({ kind: "network" });
	});
});
