// Argument parsing for the terminal chat (scripts/chat.ts), kept apart so it can be tested.
import { DEFAULT_BASE_URLS, type ProviderName } from "../src/providers";
import { parseExcludedFolder } from "./excludedFolders";

export interface ChatArgs {
	provider: ProviderName;
	model: string;
	baseUrl: string;
	/** Markdown files sent with every message (`--note`, once per file), as notes the person added in the panel. */
	notes: string[];
	/** A folder of Markdown notes: `@vault` in a message adds the passages most relevant to it. */
	vault?: string;
	/** Vault folders (`--exclude`, once per folder) neither indexed, listed, searched, read nor written. */
	exclude?: string[];
	/** Continue this saved session. */
	session?: string;
	/** The chats folder: chats in `<dir>/sessions/`, as in the plugin's Chats folder. */
	dir: string;
	/** The model's context window in tokens; the plugin's default when absent. */
	contextWindow?: number;
	/** Offer the model the six vault tools over `vault` (writes ask y/n in the terminal); absent: no tools. */
	tools?: true;
	/** List saved sessions and exit. */
	listSessions: boolean;
	help: boolean;
}

export const DEFAULT_SESSIONS_DIR = "./.discover-sessions";
export const API_KEY_ENV = "DISCOVER_API_KEY";

export const USAGE = `Usage: npm run chat -- --provider ollama --model llama3.2 [options]

Options:
  --provider <name>       ollama (default), openai (any OpenAI-compatible server) or anthropic
  --model <name>          the model to talk to (required)
  --base-url <url>        the server (default: Ollama http://localhost:11434, OpenAI
                          https://api.openai.com/v1, Anthropic https://api.anthropic.com);
                          for OpenAI-compatible servers include /v1
  --note <file.md>        send this note with every message, as a note added in the panel; give it
                          once per note (the notes share what the conversation leaves of the window);
                          re-read when it changes on disk, left out (said so) while it is missing
  --vault <folder>        a folder of Markdown notes (a vault): write @vault in a message to add the
                          passages of its notes most relevant to the message. Notes edited, added
                          or deleted on disk during the chat are seen at the next message
  --exclude <folder>      leave this folder of the --vault out of @vault and the tools, as hidden
                          folders are: never indexed, listed, searched, read or written. A path
                          inside the vault ("Private", "Work/Clients"); give it once per folder
                          (a comma is part of a folder's name, not a separator)
  --tools                 let the model use the vault tools on the --vault folder: search_notes,
                          read_note, list_notes and get_active_note run on their own; create_note and
                          edit_note print the change as a diff and ask "Allow? [y/N/reason]" (y runs
                          it once; Enter or n declines; other text declines and tells the model why).
                          With piped input, writes are declined. The tools never reach outside the
                          folder, its hidden folders (.obsidian), the --exclude folders or the chats
                          folder (--dir), and what they read is sent to the model
  --session <id>          continue a saved session
  --dir <folder>          the chats folder, laid out as the plugin's Chats folder is (so a vault's
                          Discover/Chats works here too): each chat is <folder>/sessions/<id>.jsonl,
                          with index.json and calibration.json beside (default ${DEFAULT_SESSIONS_DIR})
  --context <tokens>      the model's context window (default 8192)
  --list-sessions         list saved sessions and exit
  --help                  show this help

The API key, if the server needs one, comes from the ${API_KEY_ENV} environment variable.
While an answer streams, Ctrl-C stops it; Ctrl-C twice quits. Type /new for a new chat,
/sessions to list the saved ones, /quit to leave. A chat is saved with its first message.`;

const PROVIDERS: readonly ProviderName[] = ["ollama", "openai", "anthropic"];
const VALUE_FLAGS = new Set(["--provider", "--model", "--base-url", "--note", "--vault", "--session", "--dir", "--context", "--exclude"]);
/** Flags that may be given more than once; each value is kept, in order. */
const REPEATABLE = new Set(["--note", "--exclude"]);
const SWITCHES = new Set(["--list-sessions", "--tools", "--help", "-h"]);

export type ParseResult = { ok: true; args: ChatArgs } | { ok: false; error: string };

/** Parses `argv` (without node and the script). `--flag value` and `--flag=value` both work. */
export function parseChatArgs(argv: readonly string[]): ParseResult {
	const values = new Map<string, string>();
	const repeated = new Map<string, string[]>();
	const switches = new Set<string>();
	for (let i = 0; i < argv.length; i++) {
		const raw = argv[i] ?? "";
		const eq = raw.indexOf("=");
		const flag = raw.startsWith("--") && eq > 0 ? raw.slice(0, eq) : raw;
		if (flag === "--api-key" || flag === "--key") {
			return { ok: false, error: `Don't pass the API key on the command line (it ends up in shell history); set ${API_KEY_ENV} instead.` };
		}
		if (SWITCHES.has(flag)) {
			switches.add(flag === "-h" ? "--help" : flag);
			continue;
		}
		if (!VALUE_FLAGS.has(flag)) return { ok: false, error: `Unknown option "${raw}". Run with --help to see the options.` };
		const value = flag !== raw ? raw.slice(eq + 1) : argv[++i];
		if (value === undefined || value === "" || (flag === raw && value.startsWith("--"))) return { ok: false, error: `${flag} needs a value.` };
		if (REPEATABLE.has(flag)) {
			const list = repeated.get(flag) ?? [];
			if (list.includes(value)) return { ok: false, error: `${flag} ${value} is given twice.` };
			repeated.set(flag, [...list, value]);
			continue;
		}
		if (values.has(flag)) return { ok: false, error: `${flag} is given twice.` };
		values.set(flag, value);
	}
	const help = switches.has("--help");
	const provider = (values.get("--provider") ?? "ollama") as ProviderName;
	if (!PROVIDERS.includes(provider)) return { ok: false, error: `--provider must be one of ${PROVIDERS.join(", ")}, not "${provider}".` };
	const model = values.get("--model") ?? "";
	if (!model && !help && !switches.has("--list-sessions")) return { ok: false, error: "Pass --model, for example --model llama3.2." };
	const baseUrl = values.get("--base-url") ?? DEFAULT_BASE_URLS[provider];
	try {
		const url = new URL(baseUrl);
		if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http");
	} catch {
		return { ok: false, error: `--base-url must be an http(s) address, like http://localhost:11434; got "${baseUrl}".` };
	}
	let contextWindow: number | undefined;
	const context = values.get("--context");
	if (context !== undefined) {
		contextWindow = Number(context);
		if (!Number.isInteger(contextWindow) || contextWindow < 1024) return { ok: false, error: `--context must be a whole number of tokens, at least 1024; got "${context}".` };
	}
	const notes = repeated.get("--note") ?? [];
	const tools = switches.has("--tools");
	const vault = values.get("--vault");
	if (tools && vault === undefined && !help) return { ok: false, error: "--tools needs --vault <folder>: the folder of notes the tools work on." };
	const exclude: string[] = [];
	for (const raw of repeated.get("--exclude") ?? []) {
		const parsed = parseExcludedFolder(raw);
		if (!parsed.ok) return parsed;
		exclude.push(parsed.folder);
	}
	if (exclude.length > 0 && vault === undefined && !help) return { ok: false, error: "--exclude needs --vault <folder>: it names a folder inside the vault." };
	const args: ChatArgs = { provider, model, baseUrl, notes, dir: values.get("--dir") ?? DEFAULT_SESSIONS_DIR, listSessions: switches.has("--list-sessions"), help };
	if (vault !== undefined) args.vault = vault;
	if (tools) args.tools = true;
	if (exclude.length > 0) args.exclude = exclude;
	const session = values.get("--session");
	if (session !== undefined) args.session = session;
	if (contextWindow !== undefined) args.contextWindow = contextWindow;
	return { ok: true, args };
}

/** `value` as one shell word: as is when it is plain, otherwise in single quotes. */
function shellWord(value: string): string {
	return /^[\w./:@%+,=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The command that continues `sessionId` with the same options (the same server, model, folder, notes, vault). */
export function resumeCommand(args: ChatArgs, sessionId: string): string {
	const words = ["npm", "run", "chat", "--", "--session", sessionId, "--provider", args.provider, "--model", args.model];
	if (args.baseUrl !== DEFAULT_BASE_URLS[args.provider]) words.push("--base-url", args.baseUrl);
	if (args.dir !== DEFAULT_SESSIONS_DIR) words.push("--dir", args.dir);
	for (const note of args.notes) words.push("--note", note);
	if (args.vault !== undefined) words.push("--vault", args.vault);
	for (const folder of args.exclude ?? []) words.push("--exclude", folder);
	if (args.tools === true) words.push("--tools");
	if (args.contextWindow !== undefined) words.push("--context", String(args.contextWindow));
	return words.map(shellWord).join(" ");
}
