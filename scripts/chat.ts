// The terminal chat: Discover's engine without Obsidian, on the same ChatService, compaction and
// budget as the plugin. `npm run chat -- --help` for the options.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
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
	type ContextSource,
} from "../src/headless";
import { DEFAULT_CHAT_SETTINGS } from "../src/core/types";
import { API_KEY_ENV, parseChatArgs, resumeCommand, USAGE, type ChatArgs } from "./chatArgs";
import { AnswerPrinter } from "./answerPrinter";
import { chatsFolderIn, openTerminalTools, type TerminalIO, type TerminalTools } from "./chatTools";
import { hasFolder } from "./excludedFolders";
import { NodeVault } from "./nodeVault";
import { NoteFiles } from "./noteFiles";
import { mentionsVault, retrievedSources, vaultQuery } from "./vaultSources";

const CALIBRATION_FILE = "calibration.json";
/** How long the connection test at start may take. */
const CONNECTION_TEST_MS = 10_000;

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

/** A failed send or start as one line for the person: the message, without the engine's kind tag. */
function describeError(err: unknown): string {
	const message = err instanceof Error ? err.message : String(err);
	// The kind names the failure only when the message alone would not ("aborted", a bare code).
	return message.trim() === "" ? (errorKind(err) ?? "unknown error") : message.replace(/\s+/g, " ").trim();
}

/** Bad input found before the chat starts: printed alone, exit code 2. */
class UsageError extends Error {}

async function listSessions(sessions: SessionManager): Promise<void> {
	const list = await sessions.list();
	if (list.length === 0) info("No saved sessions yet.");
	for (const s of list) console.log(`${s.id}  ${localTime(s.updatedAt)}  ${s.title}`);
}

/** A saved time in the person's time zone and date format (the files keep UTC). */
function localTime(iso: string): string {
	const date = new Date(iso);
	if (Number.isNaN(date.getTime())) return iso;
	return new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(date);
}

async function run(args: ChatArgs): Promise<void> {
	const store = new NodeFileStore(args.dir);
	const sessions = new SessionManager(store, { onWarning: (m) => info(`warning: ${m}`) });
	if (args.listSessions) {
		await listSessions(sessions);
		return;
	}
	// Each --note is a source of kind "note", named by its file, with the path as given; read again
	// at each message when it changed on disk. One that cannot be read now is bad input: said before anything else.
	const notes = await NoteFiles.open(args.notes, (line) => info(line));
	const apiKey = process.env[API_KEY_ENV] || undefined;
	if (args.provider === "anthropic" && apiKey === undefined) {
		// Anthropic refuses every request without a key: say so now, not after the first question.
		throw new UsageError(`Anthropic needs an API key: set ${API_KEY_ENV} to it (it is never taken from a flag), e.g. ${API_KEY_ENV}=sk-ant-… npm run chat -- --provider anthropic --model ${args.model}`);
	}
	const adapter = createAdapter({ provider: args.provider, baseUrl: args.baseUrl, model: args.model, apiKey });
	// A server that accepts the connection but never answers must not hold the prompt for a minute.
	const limit = AbortSignal.timeout(CONNECTION_TEST_MS);
	const diagnosis = await adapter.testConnection(limit);
	if (limit.aborted) info(`The server did not answer the connection test within ${CONNECTION_TEST_MS / 1000} s (continuing anyway).`);
	else if (!diagnosis.ok) info(`${diagnosis.message} (continuing anyway)`);
	else info(diagnosis.message);

	let vault: NodeVault | undefined;
	// The answer being printed, so tool lines and questions start on lines of their own.
	let printer: AnswerPrinter | undefined;
	// Set once the line reader exists; a question needs it.
	let askLine: ((prompt: string, signal: AbortSignal) => Promise<string>) | undefined;
	const io: TerminalIO = {
		line: (text) => (printer ? printer.line(text) : console.log(text)),
		// Only a person at a terminal can answer; piped input declines writes (chatTools says so).
		question: process.stdin.isTTY === true ? (prompt, signal) => (askLine ? askLine(prompt, signal) : Promise.reject(new Error("no terminal"))) : undefined,
	};
	let tools: TerminalTools | undefined;
	if (args.tools === true && args.vault !== undefined) {
		tools = await openVaultTools(args.vault, args.dir, args.exclude ?? [], io);
		vault = tools.vault;
	} else if (args.vault !== undefined) {
		vault = await NodeVault.open(args.vault, { skipFolders: [...chatsFolderOutsideTools(args.vault, args.dir), ...(args.exclude ?? [])] });
		info(`Indexed ${vault.listNotes().length} notes in ${args.vault}; write @vault in a message to add the most relevant passages.`);
	}
	if (vault !== undefined) {
		for (const folder of args.exclude ?? []) {
			if (!(await hasFolder(vault.root, folder))) info(`warning: --exclude ${folder}: there is no such folder in ${args.vault ?? ""} (nothing is left out for it; check the spelling).`);
		}
		if (args.exclude !== undefined) info(`Left out: ${args.exclude.join(", ")}.`);
	}
	const calibration = await loadCalibration(args.dir).catch(() => new TokenCalibration());
	// A chat's file is created with its first message (ChatService does that when it has no session),
	// so launching and quitting, or /new and quitting, leaves no empty chat behind.
	const makeChat = (): ChatService => new ChatService({
		adapter,
		sessions,
		model: args.model,
		calibration,
		settings: { ...DEFAULT_CHAT_SETTINGS, ...(args.contextWindow ? { maxPromptTokens: args.contextWindow } : {}) },
		...(tools ? { tools: tools.tools, approve: tools.approve } : {}),
		onEvent: (event: ChatEvent) => {
			if (event.type === "tool") tools?.showCard(event.card);
			else if (event.type === "status") info(event.text);
			else if (event.type === "warning") info(`warning: ${event.message}`);
			else if (event.type === "compacted") info(`(summarized ${event.summarizedCount} older messages to stay within the context window)`);
		},
	});
	let chat = makeChat();
	const chatsFolder = join(args.dir, "sessions");
	if (args.session) {
		const session = await chat.loadSession(args.session);
		info(`Continuing "${session.title}" (${session.messages.length} messages).`);
	} else {
		info(`New chat; it is saved in ${chatsFolder} with its first message.`);
	}
	if (args.notes.length > 0) info(`Sending ${args.notes.join(", ")} with every message (read again when it changes on disk).`);

	// Line editing and echo need a terminal at both ends; with piped input or output, plain lines.
	const terminal = process.stdin.isTTY === true && process.stdout.isTTY === true;
	const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: "you> ", terminal });
	askLine = (prompt, signal) =>
		new Promise((done, fail) => {
			if (signal.aborted) return fail(new Error("stopped"));
			signal.addEventListener("abort", () => fail(new Error("stopped")), { once: true });
			rl.question(prompt, { signal }, done);
		});
	/** How to come back to this chat, once it has a file. */
	const resumeHint = (): string | undefined => (chat.sessionId === undefined ? undefined : `To resume this chat: ${resumeCommand(args, chat.sessionId)}`);
	// The first Ctrl-C never quits: it stops a running answer, or at the prompt says how to quit and
	// how to come back. A second one before the next message quits.
	let interrupted = false;
	let quitting = false;
	const quit = (): void => {
		quitting = true;
		tools?.cancelQuestions();
		chat.cancel();
		rl.close();
	};
	const onInterrupt = (): void => {
		if (interrupted) {
			quit();
			return;
		}
		interrupted = true;
		if (chat.busy) {
			tools?.cancelQuestions();
			chat.cancel();
			info("\n(stopped; press Ctrl-C again to quit)");
			return;
		}
		const hint = resumeHint();
		info(`\nPress Ctrl-C again to quit${hint === undefined ? " (nothing is saved until the first message)" : ""}.${hint === undefined ? "" : `\n${hint}`}`);
		rl.prompt(true);
	};
	rl.on("SIGINT", onInterrupt);
	process.on("SIGINT", onInterrupt);

	rl.prompt();
	// Whether "you> " is waiting for a line: piped input that ends there leaves it open.
	let promptOpen = true;
	for await (const line of rl) {
		promptOpen = false;
		interrupted = false;
		const text = line.trim();
		if (text === "/quit" || text === "/exit") break;
		if (text === "/sessions") await listSessions(sessions);
		else if (text === "/new") {
			await chat.flush();
			const left = resumeHint();
			chat = makeChat();
			info(`New chat; it is saved with its first message.${left === undefined ? "" : `\n${left.replace("this chat", "the previous chat")}`}`);
		} else if (text !== "") {
			const tty = process.stdout.isTTY === true;
			// Piped input is not echoed: the transcript shows what was asked after "you> ".
			if (process.stdin.isTTY !== true) process.stdout.write(`${text}\n`);
			printer = new AnswerPrinter((s) => void process.stdout.write(s), () => (tty ? (process.stdout.columns ?? 0) : 0), tty);
			await answer(chat, text, await messageSources(text, notes, vault), printer, tty);
			printer = undefined;
		}
		if (quitting) break;
		rl.prompt();
		promptOpen = true;
	}
	if (promptOpen && process.stdin.isTTY !== true) process.stdout.write("\n");
	await chat.flush();
	rl.close();
	const hint = resumeHint();
	if (hint !== undefined) info(hint);
}

/**
 * The notes given with --note as they are on disk now, and for a message that mentions @vault, the
 * passages found for it in the vault's index, brought up to date with the disk first.
 */
async function messageSources(text: string, notes: NoteFiles, vault: NodeVault | undefined): Promise<ContextSource[]> {
	const sent = await notes.sources();
	if (!mentionsVault(text)) return sent;
	if (vault === undefined) {
		info("(@vault: no vault; pass --vault <folder>)");
		return sent;
	}
	await vault.refresh();
	const found = retrievedSources(vault.index, vaultQuery(text));
	info(found.length === 0 ? "(@vault: nothing relevant found)" : `(@vault: passages from ${found.map((s) => s.name).join(", ")})`);
	return [...sent, ...found];
}

/** The chats folder as a vault path to skip, for @vault without --tools (where --dir may even be the vault). */
function chatsFolderOutsideTools(vaultDir: string, chatsDir: string): string[] {
	try {
		const folder = chatsFolderIn(vaultDir, chatsDir);
		return folder === "" ? [] : [folder];
	} catch {
		return [];
	}
}

async function answer(chat: ChatService, text: string, sources: ContextSource[], printer: AnswerPrinter, tty: boolean): Promise<void> {
	// Wrapped at the terminal's width as it is now (a resize applies to the next word); not when piped.
	// On a terminal the prefix shows at once (and is taken back if nothing follows it); piped, it is
	// written with the answer's first words, so a failed send is one line of its own.
	if (tty) printer.begin();
	let message: ChatMessage;
	try {
		message = await chat.sendMessage(text, {
			sources,
			onToken: (delta) => printer.text(delta),
			// Text already printed that turned out to be thinking (only `</think>` came): say so.
			onTextRetracted: () => printer.retracted(),
		});
	} catch (err) {
		printer.close();
		info(`error: ${describeError(err)}`);
		return;
	}
	printer.close();
	if (message.cancelled) info("(answer stopped; the partial answer is saved)");
}

/** Indexes the --vault folder for the tools, with a progress line on a terminal and a summary. */
async function openVaultTools(vaultDir: string, chatsDir: string, excluded: readonly string[], io: TerminalIO): Promise<TerminalTools> {
	const started = Date.now();
	// One line, rewritten in place every 200 notes; none when stderr is not a terminal.
	const showProgress = (done: number, total: number): void => {
		if (done % 200 === 0 || done === total) process.stderr.write(`\r${dim(`Indexing ${vaultDir}: ${done} of ${total} notes`)}`);
	};
	const progress = process.stderr.isTTY ? showProgress : undefined;
	const tools = await openTerminalTools({ vaultDir, chatsDir, io, excluded, ...(progress ? { onProgress: progress } : {}) });
	if (progress) process.stderr.write("\r\x1b[K");
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	info(`Indexed ${tools.vault.listNotes().length} notes in ${vaultDir} (${seconds} s). Tools on: the model may search and read them; it asks before a write. @vault works too.`);
	return tools;
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
			console.error(err instanceof UsageError ? err.message : `error: ${describeError(err)}`);
			process.exit(err instanceof UsageError ? 2 : 1);
		},
	);
}
