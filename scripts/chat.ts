// The terminal chat: Discover's engine without Obsidian, on the same ChatService, compaction and
// budget as the plugin. `npm run chat -- --help` for the options.
import { readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { createInterface } from "node:readline";
import {
	ChatService,
	createAdapter,
	errorKind,
	NodeFileStore,
	SessionManager,
	TokenCalibration,
	type ChatEvent,
	type ChatMessage,
} from "../src/headless";
import { DEFAULT_CHAT_SETTINGS } from "../src/core/types";
import { API_KEY_ENV, parseChatArgs, USAGE, type ChatArgs } from "./chatArgs";

const CALIBRATION_FILE = "calibration.json";
/** How long the connection test at start may take. */
const CONNECTION_TEST_MS = 10_000;
/** A second Ctrl-C within this time quits. */
const DOUBLE_PRESS_MS = 2000;

const dim = (s: string): string => (process.stderr.isTTY ? `\x1b[2m${s}\x1b[0m` : s);
const info = (s: string): void => void process.stderr.write(`${dim(s)}\n`);

async function loadCalibration(dir: string): Promise<TokenCalibration> {
	const path = join(dir, CALIBRATION_FILE);
	let raw: unknown;
	try {
		raw = JSON.parse(await readFile(path, "utf8")) as unknown;
	} catch {
		raw = undefined; // None yet, or unreadable: start fresh.
	}
	return TokenCalibration.fromJSON(raw, (data) => {
		writeFile(path, JSON.stringify(data)).catch(() => undefined);
	});
}

function describeError(err: unknown): string {
	const kind = errorKind(err);
	const message = err instanceof Error ? err.message : String(err);
	return kind ? `${kind}: ${message}` : message;
}

async function listSessions(sessions: SessionManager): Promise<void> {
	const list = await sessions.list();
	if (list.length === 0) info("No saved sessions yet.");
	for (const s of list) console.log(`${s.id}  ${s.updatedAt}  ${s.title}`);
}

async function run(args: ChatArgs): Promise<void> {
	const store = new NodeFileStore(args.dir);
	const sessions = new SessionManager(store, { onWarning: (m) => info(`warning: ${m}`) });
	if (args.listSessions) {
		await listSessions(sessions);
		return;
	}
	const apiKey = process.env[API_KEY_ENV] || undefined;
	const adapter = createAdapter({ provider: args.provider, baseUrl: args.baseUrl, model: args.model, apiKey });
	// A server that accepts the connection but never answers must not hold the prompt for a minute.
	const limit = AbortSignal.timeout(CONNECTION_TEST_MS);
	const diagnosis = await adapter.testConnection(limit);
	if (limit.aborted) info(`The server did not answer the connection test within ${CONNECTION_TEST_MS / 1000} s (continuing anyway).`);
	else if (!diagnosis.ok) info(`${diagnosis.message} (continuing anyway)`);
	else info(diagnosis.message);

	const note = args.note ? await readFile(args.note, "utf8") : undefined;
	const calibration = await loadCalibration(args.dir).catch(() => new TokenCalibration());
	const chat = new ChatService({
		adapter,
		sessions,
		model: args.model,
		calibration,
		settings: { ...DEFAULT_CHAT_SETTINGS, ...(args.contextWindow ? { maxPromptTokens: args.contextWindow } : {}) },
		onEvent: (event: ChatEvent) => {
			if (event.type === "status") info(event.text);
			else if (event.type === "warning") info(`warning: ${event.message}`);
			else if (event.type === "compacted") info(`(summarized ${event.summarizedCount} older messages to stay within the context window)`);
		},
	});
	if (args.session) {
		const session = await chat.loadSession(args.session);
		info(`Continuing "${session.title}" (${session.messages.length} messages).`);
	} else {
		const session = await chat.newSession();
		info(`New session ${session.id}, saved in ${args.dir}.`);
	}
	if (note !== undefined && args.note) info(`Sending ${basename(args.note)} with every message.`);

	const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: "you> " });
	let lastInterrupt = 0;
	let quitting = false;
	const quit = (): void => {
		quitting = true;
		chat.cancel();
		rl.close();
	};
	const onInterrupt = (): void => {
		const now = Date.now();
		if (!chat.busy || now - lastInterrupt < DOUBLE_PRESS_MS) {
			quit();
			return;
		}
		lastInterrupt = now;
		chat.cancel();
		info("\n(stopped; Ctrl-C again to quit)");
	};
	rl.on("SIGINT", onInterrupt);
	process.on("SIGINT", onInterrupt);

	rl.prompt();
	for await (const line of rl) {
		const text = line.trim();
		if (text === "/quit" || text === "/exit") break;
		if (text === "/sessions") await listSessions(sessions);
		else if (text === "/new") info(`New session ${(await chat.newSession()).id}.`);
		else if (text !== "") await answer(chat, text, note, args.note);
		if (quitting) break;
		rl.prompt();
	}
	await chat.flush();
	rl.close();
}

async function answer(chat: ChatService, text: string, note: string | undefined, notePath: string | undefined): Promise<void> {
	process.stdout.write("discover> ");
	let message: ChatMessage;
	try {
		message = await chat.sendMessage(text, {
			context: note,
			contextName: notePath ? basename(notePath) : undefined,
			onToken: (delta) => void process.stdout.write(delta),
			// Text already printed that turned out to be thinking (only `</think>` came): say so.
			onTextRetracted: () => void process.stdout.write("\n(that was the model's thinking)\ndiscover> "),
		});
	} catch (err) {
		process.stdout.write("\n");
		info(`error: ${describeError(err)}`);
		return;
	}
	process.stdout.write("\n");
	if (message.cancelled) info("(answer stopped; the partial answer is saved)");
}

const parsed = parseChatArgs(process.argv.slice(2));
if (!parsed.ok) {
	console.error(`${parsed.error}\n\n${USAGE}`);
	process.exitCode = 2;
} else if (parsed.args.help) {
	console.log(USAGE);
} else {
	run(parsed.args).then(
		() => process.exit(0),
		(err: unknown) => {
			console.error(`error: ${describeError(err)}`);
			process.exit(1);
		},
	);
}
