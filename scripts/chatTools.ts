// The terminal chat's --tools: the six vault tools over a folder on disk (scripts/nodeVault.ts),
// with the plugin's own path rules (createVaultTools' scope: never outside the folder, never its
// config folder, never the chats folder) and permission rules. Read tools run; a write prints its
// diff and asks "Allow? [y/N/reason]": y runs it once, Enter or n declines, anything else declines
// with that text as the reason the model is told. Without a terminal to ask on (piped input),
// writes are declined and the chat says so. The terminal itself is injected (TerminalIO), so tests
// drive the prompt without one. Before every call the folder's index is brought up to date with
// the disk (NodeVault.refresh), so a note edited, added or deleted outside the chat is searched,
// listed and read as it is now; --exclude folders are fenced off like the chats folder.
import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { createVaultTools, PermissionRules, type AccessDecision, type Approve, type AskFn, type ChangeJournal, type ToolCard, type ToolPreview, type ToolScope, type VaultTool } from "../src/headless";
import { NodeVault } from "./nodeVault";
import { DEFAULT_SETTINGS } from "../src/settings/settings";
import { DEFAULT_AGENTS_FOLDER } from "../src/tools/paths";

export interface TerminalIO {
	/** Prints one whole line (the caller ends a partly written answer line first). */
	line(text: string): void;
	/** Asks and resolves with the line typed; rejects when `signal` aborts. Absent: input is not a terminal. */
	question?: (prompt: string, signal: AbortSignal) => Promise<string>;
}

export interface TerminalTools {
	tools: VaultTool[];
	approve: Approve;
	vault: NodeVault;
	changes: ChangeJournal;
	/** Prints a tool card as it changes (the `tool` ChatEvent). */
	showCard(card: ToolCard): void;
	/** Drops a question still waiting for an answer (Ctrl-C stops the turn, which declines the call). */
	cancelQuestions(): void;
}

export const ALLOW_PROMPT = "Allow? [y/N/reason] ";
export const NOT_INTERACTIVE_NOTE = "(input is not a terminal, so writes cannot be approved here: declined)";
const NOT_INTERACTIVE_REASON = "the terminal chat cannot ask (its input is not a terminal), so writes are declined";
/** The longest result line a card prints. */
const RESULT_CHARS = 100;

/** The person's answer to "Allow?": y/yes once; Enter, n or no declines; any other text declines with it as the reason. */
export function parseAllowAnswer(answer: string): AccessDecision {
	const text = answer.trim();
	if (/^(y|yes)$/i.test(text)) return { kind: "once" };
	if (text === "" || /^(n|no)$/i.test(text)) return { kind: "deny" };
	return { kind: "deny", reason: text };
}

/** The plugin's default chats folder (settings.sessionsFolder's default). */
const DEFAULT_PLUGIN_CHATS = DEFAULT_SETTINGS.sessionsFolder;

/** `path` with every symbolic link resolved; for a path not made yet, its nearest existing folder's real path and the rest. */
export function realPathOf(path: string): string {
	let probe = resolve(path);
	const rest: string[] = [];
	for (;;) {
		try {
			return join(realpathSync(probe), ...rest.reverse());
		} catch {
			const parent = dirname(probe);
			if (parent === probe) return resolve(path);
			rest.push(basename(probe));
			probe = parent;
		}
	}
}

/**
 * The chats folder (--dir) as a vault path when it lies inside the vault, to fence it off; "" when
 * it is elsewhere. The vault folder itself cannot be the chats folder: every note would be fenced off.
 */
export function chatsFolderIn(vaultDir: string, chatsDir: string): string {
	// Real paths on both sides: a --vault or --dir given through a symbolic link names the same
	// folders as the tools (NodeVault opens the vault's real path), so the fence cannot be sidestepped.
	const rel = relative(realPathOf(vaultDir), realPathOf(chatsDir));
	if (rel === "") throw new Error("--dir is the --vault folder itself; give the chats a folder of their own (inside the vault or elsewhere).");
	if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return "";
	return rel.split(sep).join("/");
}

/**
 * Note text and model arguments made safe to print: control characters (an escape sequence could
 * erase a line of the diff the person is approving) and bidirectional overrides (which could make
 * a line read as something else) are shown as \u{…} codes instead of acting on the terminal.
 */
export function visible(text: string): string {
	// eslint-disable-next-line no-control-regex -- matching control characters is the point
	return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
}

const oneLine = (text: string): string => {
	const flat = visible(text.replace(/\s+/g, " ").trim());
	return flat.length > RESULT_CHARS ? `${flat.slice(0, RESULT_CHARS - 1)}…` : flat;
};

/** A card as one compact line, or undefined for states not worth a line (arguments streaming, waiting: a write's question says it). */
export function formatCard(card: ToolCard): string | undefined {
	const args = card.arguments ? JSON.stringify(card.arguments) : "";
	if (card.state === "running") return `  [tool] ${visible(card.name)} ${oneLine(args)}`;
	if (card.state === "done") return `  [tool] ${visible(card.name)} done: ${oneLine(card.result ?? "")}`;
	if (card.state === "failed") return `  [tool] ${visible(card.name)} failed: ${oneLine(card.error ?? "")}`;
	return undefined;
}

/** `tool` with the vault refreshed from disk before it previews or runs (a write's preview reads the note too). */
export function onFreshVault(tool: VaultTool, refresh: () => Promise<unknown>): VaultTool {
	const fresh: VaultTool = {
		...tool,
		run: async (args, ctx) => {
			await refresh();
			return tool.run(args, ctx);
		},
	};
	const preview = tool.preview;
	if (preview) {
		fresh.preview = async (args) => {
			await refresh();
			return preview(args);
		};
	}
	return fresh;
}

/** Opens `vaultDir` and builds the tools, the approver and the card printer over `io`. */
export async function openTerminalTools(opts: {
	vaultDir: string;
	chatsDir: string;
	io: TerminalIO;
	chatId?: string;
	/** Vault folders (--exclude) the tools neither index, list, search, read nor write. */
	excluded?: readonly string[];
	onProgress?: (done: number, total: number) => void;
}): Promise<TerminalTools> {
	const { io } = opts;
	const chatsFolder = chatsFolderIn(opts.vaultDir, opts.chatsDir);
	const excluded = [...(opts.excluded ?? [])];
	const vault = await NodeVault.open(opts.vaultDir, { skipFolders: [...(chatsFolder === "" ? [] : [chatsFolder]), ...excluded], ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) });
	// The plugin's own chats folder is fenced too, wherever --dir points: a terminal chat opened on a
	// real vault must not write into the panel's chats.
	const fenced = chatsFolder === DEFAULT_PLUGIN_CHATS ? excluded : [...excluded, DEFAULT_PLUGIN_CHATS];
	const scope: ToolScope = { chatsFolder: () => chatsFolder, excludedFolders: () => fenced, agentsFolder: () => DEFAULT_AGENTS_FOLDER };
	const made = createVaultTools(vault, scope);
	const tools = made.tools.map((tool) => onFreshVault(tool, () => vault.refresh()));
	const { changes } = made;
	// Reads run unasked (the plugin's default); no "always" rules in the terminal: every write asks.
	const rules = new PermissionRules({ readAllowed: () => true, alwaysRules: () => [], saveAlwaysRules: () => Promise.resolve() });
	const pending = new Set<AbortController>();
	const ask: AskFn = async (call, _tool, preview: ToolPreview | undefined) => {
		io.line(`${call.name} wants to change ${visible(preview?.path ?? "a note")}:`);
		for (const l of (preview?.diff ?? "(no preview)").replace(/\n$/, "").split("\n")) io.line(`  ${visible(l)}`);
		if (!io.question) {
			io.line(NOT_INTERACTIVE_NOTE);
			return { kind: "deny", reason: NOT_INTERACTIVE_REASON };
		}
		const controller = new AbortController();
		pending.add(controller);
		try {
			return parseAllowAnswer(await io.question(ALLOW_PROMPT, controller.signal));
		} finally {
			pending.delete(controller);
		}
	};
	return {
		tools,
		changes,
		vault,
		approve: rules.approverFor(opts.chatId ?? "terminal", ask),
		showCard(card) {
			const text = formatCard(card);
			if (text !== undefined) io.line(text);
		},
		cancelQuestions() {
			for (const c of pending) c.abort();
		},
	};
}
