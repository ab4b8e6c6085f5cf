// One round of tool calls: each call in order is checked, put to the person, run, and its result
// fitted and saved, so every call the model made gets exactly one result, whatever happens (an
// unknown tool, bad arguments, a denial, a throw, Stop, a call past the round's first 16). A call never stays without its result:
// providers refuse a prompt holding one.
import type { CheckpointTimers } from "./answerCheckpoint";
import type { ToolApprover, ToolCard } from "./toolCard";
import type { ImageRef, PromptImage, Tool, ToolApproval, ToolCall, ToolProgress } from "../core/types";
import { progressThrottle } from "./progressThrottle";

/** A permission request nobody answers is a denial after this long, so a forgotten card never holds a chat. */
export const APPROVAL_TIMEOUT_MS = 5 * 60 * 1000;

/** What a call's result says, before it is fitted to its share. */
export interface CallOutcome {
	text: string;
	isError: boolean;
	/**
	 * Images the result carried (when `takesImages`), not yet saved: the record step keeps those that
	 * fit the result's share and saves only them (ChatServiceOptions.saveToolImage).
	 */
	images?: PromptImage[];
}

/** Saves an image a tool returned as a file the chat names (ChatServiceOptions.saveToolImage). */
export type ToolImageSaver = (image: PromptImage, name: string) => Promise<ImageRef>;

/** The most images one result keeps (a server may send dozens); the others are only described. */
export const MAX_RESULT_IMAGES = 4;
/** An image over this many base64 characters (about 7.5 MB) is only described. */
export const MAX_RESULT_IMAGE_CHARS = 10 * 1024 * 1024;

export interface ToolRoundOptions {
	calls: readonly ToolCall[];
	round: number;
	tools: ReadonlyMap<string, Tool>;
	approve: ToolApprover;
	timers: CheckpointTimers;
	signal: AbortSignal;
	/** The card changed. */
	onCard: (card: ToolCard) => void;
	/** Fits the outcome to its share and saves it (its images kept saved as files): the text and the images, as recorded. */
	record: (call: ToolCall, tool: Tool | undefined, outcome: CallOutcome) => Promise<{ content: string; attachments?: ImageRef[] }>;
	/** Whether a result's images are collected (there is somewhere to save them); else they stay described in its text. */
	takesImages?: boolean;
}

type Decision = "allow" | { deny: string } | "stopped";

const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The most calls of one answer that run; the others get TOO_MANY_CALLS as their result. */
export const MAX_CALLS_A_ROUND = 16;
export const TOO_MANY_CALLS = `Not run: at most ${MAX_CALLS_A_ROUND} tool calls a round; ask for fewer at once.`;

export const STOPPED_BEFORE_RUN = "The person stopped the chat before this call ran.";
export const STOPPED_WHILE_RUNNING = "The person stopped the chat while this call ran.";

/** The message a denial gives the model. */
export function declined(why: string | undefined): string {
	return why !== undefined && why.trim() !== "" ? `The person declined: ${why.trim()}` : "The person declined this call.";
}

function normalize(answer: ToolApproval): "allow" | { deny: string } {
	if (answer === "allow") return "allow";
	if (typeof answer === "object" && answer !== null && typeof answer.deny === "string") return { deny: answer.deny };
	return { deny: "" };
}

/**
 * The person's answer to one call, or a denial ("no answer") after APPROVAL_TIMEOUT_MS, or
 * "stopped" the moment the turn is stopped (which denies whatever is pending).
 */
export function askPermission(approve: ToolApprover, call: ToolCall, tool: Tool, timers: CheckpointTimers, signal: AbortSignal): Promise<Decision> {
	return new Promise<Decision>((resolve) => {
		let settled = false;
		let timer: unknown;
		const finish = (decision: Decision): void => {
			if (settled) return;
			settled = true;
			timers.clear(timer);
			signal.removeEventListener("abort", onAbort);
			resolve(decision);
		};
		const onAbort = (): void => finish("stopped");
		if (signal.aborted) return finish("stopped");
		signal.addEventListener("abort", onAbort, { once: true });
		timer = timers.set(() => finish({ deny: "no answer" }), APPROVAL_TIMEOUT_MS);
		Promise.resolve()
			.then(() => approve(call, tool))
			.then(
				(answer) => finish(normalize(answer)),
				(err: unknown) => finish({ deny: `the permission check failed (${reason(err)})` }),
			);
	});
}

/** A tool's progress reaches its card at most this often (a server may send thousands). */
export const PROGRESS_EVERY_MS = 100;

/** Runs the tool, ending at once on Stop (its signal aborts; a tool that ignores it is let go). */
function runTool(tool: Tool, args: Record<string, unknown>, signal: AbortSignal, callId: string, onProgress?: (p: ToolProgress) => void, takesImages = false): Promise<CallOutcome | "stopped"> {
	const images: PromptImage[] = [];
	const onImages = (given: PromptImage[]): void => {
		for (const image of Array.isArray(given) ? given : []) {
			if (images.length >= MAX_RESULT_IMAGES) break;
			if (typeof image?.data === "string" && typeof image.mediaType === "string" && /^image\/(png|jpeg|gif|webp)$/.test(image.mediaType) && image.data.length <= MAX_RESULT_IMAGE_CHARS) images.push({ mediaType: image.mediaType, data: image.data });
		}
	};
	return new Promise((resolve) => {
		const throttle = progressThrottle((p) => {
			if (!signal.aborted) onProgress?.(p);
		}, PROGRESS_EVERY_MS);
		const progress = (p: ToolProgress): void => {
			if (!signal.aborted) throttle.report(p);
		};
		const end = (): void => throttle.end();
		const onAbort = (): void => {
			end();
			resolve("stopped");
		};
		signal.addEventListener("abort", onAbort, { once: true });
		Promise.resolve()
			.then(() => tool.run(args, { signal, callId, onProgress: progress, ...(takesImages ? { onImages } : {}) }))
			.then((text): CallOutcome => ({ text: typeof text === "string" ? text : String(text), isError: false, ...(images.length > 0 ? { images } : {}) }))
			.then(
				(outcome) => resolve(signal.aborted ? "stopped" : outcome),
				(err: unknown) => resolve(signal.aborted ? "stopped" : { text: `The tool failed: ${reason(err)}`, isError: true }),
			)
			.finally(() => {
				end();
				signal.removeEventListener("abort", onAbort);
			});
	});
}

/** The images saved, in order; one that cannot be saved stays only described in the text. */
export async function savedImages(images: readonly PromptImage[], save: ToolImageSaver, callId: string): Promise<ImageRef[] | undefined> {
	const refs: ImageRef[] = [];
	for (const [i, image] of images.entries()) {
		try {
			refs.push(await save(image, `tool-${callId}-${i + 1}.${image.mediaType.slice(6).replace("jpeg", "jpg")}`));
		} catch (err) {
			console.error("Discover: a tool's image could not be saved", err);
		}
	}
	return refs.length > 0 ? refs : undefined;
}

/** Every call of the round gets its result, in call order. Resolves "stopped" when Stop ended it. */
export async function runToolRound(opts: ToolRoundOptions): Promise<"done" | "stopped"> {
	const { calls, round, signal } = opts;
	let stopped = false;
	for (const [index, call] of calls.entries()) {
		const tool = opts.tools.get(call.name);
		const card: ToolCard = { id: call.id, index, round, name: call.name, state: "waiting", arguments: call.arguments, waitingFor: "permission" };
		if (tool !== undefined) card.access = tool.access;
		if (tool?.mcp !== undefined) card.mcp = tool.mcp;
		const finish = async (outcome: CallOutcome): Promise<void> => {
			const { content: text, attachments } = await opts.record(call, tool, outcome);
			opts.onCard(outcome.isError ? { ...card, state: "failed", waitingFor: undefined, error: text } : { ...card, state: "done", waitingFor: undefined, result: text, ...(attachments !== undefined ? { images: attachments } : {}) });
		};
		if (stopped || signal.aborted) {
			stopped = true;
			await finish({ text: STOPPED_BEFORE_RUN, isError: true });
			continue;
		}
		// Past the round's calls: not run, not put to the person; the model is told to ask for fewer.
		if (index >= MAX_CALLS_A_ROUND) {
			await finish({ text: TOO_MANY_CALLS, isError: true });
			continue;
		}
		if (call.invalidArguments !== undefined) {
			await finish({ text: `The arguments could not be read, so ${call.name} did not run: ${call.invalidArguments}`, isError: true });
			continue;
		}
		if (tool === undefined) {
			const known = [...opts.tools.keys()].join(", ");
			await finish({ text: `There is no tool named "${call.name}". The tools are: ${known === "" ? "none" : known}.`, isError: true });
			continue;
		}
		opts.onCard(card);
		const decision = await askPermission(opts.approve, call, tool, opts.timers, signal);
		if (decision === "stopped") {
			stopped = true;
			await finish({ text: STOPPED_BEFORE_RUN, isError: true });
			continue;
		}
		if (decision !== "allow") {
			await finish({ text: declined(decision.deny), isError: true });
			continue;
		}
		const running: ToolCard = { ...card, state: "running", waitingFor: undefined };
		opts.onCard(running);
		const outcome = await runTool(tool, call.arguments, signal, call.id, (progress) => opts.onCard({ ...running, progress: { ...progress } }), opts.takesImages);
		if (outcome === "stopped") {
			stopped = true;
			await finish({ text: STOPPED_WHILE_RUNNING, isError: true });
			continue;
		}
		await finish(outcome);
	}
	return stopped ? "stopped" : "done";
}
