// Images in a turn: priced like text (promptCost.ts), dropped from old messages before any text is
// summarized, and read from their files only at the last moment, just before the request is sent.
// The engine never holds image bytes longer than one request, and never writes them to a session.
import type { ImageRef, PromptImage, PromptMessage } from "../core/types";
import { messageImageTokens, promptMessageCost, type EstimateFn } from "./promptCost";
import { toBase64 } from "../core/base64";

/**
 * Reads an image file's bytes through the store the host gave the engine (the vault, or node:fs).
 * It may return other bytes to send, with their type (an image it scaled down as it read it).
 */
export type ImageReader = (path: string) => Promise<Uint8Array | { bytes: Uint8Array; mediaType: string }>;

/** Stands in, in an old message's text, for the images left out of the prompt. */
export function droppedImagesNote(count: number): string {
	return count === 1 ? "[An image was attached here; it is not shown again.]" : `[${count} images were attached here; they are not shown again.]`;
}

/**
 * The history with its images dropped, oldest message first, until it costs at most `room`: an old
 * screenshot is worth less to the next answer than the words around it, and one image costs as
 * much as a page of text, so images go before compaction summarizes a single word. A message whose
 * images are dropped says so in its text. Messages are copied, never changed in place.
 */
export function dropOldImages<T extends PromptMessage>(history: readonly T[], room: number, estimate: EstimateFn): { history: T[]; dropped: number } {
	let total = 0;
	for (const m of history) total += promptMessageCost(m, estimate);
	const out = [...history];
	let dropped = 0;
	for (let i = 0; i < out.length && total > room; i++) {
		const m = out[i] as T;
		const count = (m.attachments?.length ?? 0) + (m.attachments === undefined || m.attachments.length === 0 ? (m.images?.length ?? 0) : 0);
		if (count === 0) continue;
		const before = promptMessageCost(m, estimate);
		const note = droppedImagesNote(count);
		const copy: T = { ...m, content: m.content.trim() === "" ? note : `${m.content}\n\n${note}` };
		delete copy.attachments;
		delete copy.images;
		out[i] = copy;
		total += promptMessageCost(copy, estimate) - before;
		dropped += count;
	}
	return { history: out, dropped };
}

/** Tokens of the images a message to be sent carries (the current message's attachments). */
export function attachmentTokens(images: readonly ImageRef[] | undefined, estimate: EstimateFn): number {
	return images === undefined || images.length === 0 ? 0 : messageImageTokens({ attachments: [...images] }, estimate);
}


export function missingImageNote(ref: ImageRef): string {
	const name = ref.path.split("/").pop() ?? ref.path;
	return `[An attached image (${name}) could not be read, so it was not sent.]`;
}

/**
 * The prompt as the adapter gets it: each message's attachments read into `images` (base64). An
 * image that cannot be read (deleted, renamed by sync) is left out with a note in its message and
 * reported through `onMissing`; the turn goes on. Without a reader, attachments are left out the same way.
 */
export async function loadPromptImages(messages: readonly PromptMessage[], read: ImageReader | undefined, onMissing: (ref: ImageRef, err: unknown) => void): Promise<PromptMessage[]> {
	const out: PromptMessage[] = [];
	for (const m of messages) {
		if (m.attachments === undefined || m.attachments.length === 0) {
			out.push(m);
			continue;
		}
		const images: PromptImage[] = [];
		const notes: string[] = [];
		for (const ref of m.attachments) {
			try {
				if (read === undefined) throw new Error("No image store was given to the chat.");
				const got = await read(ref.path);
				images.push(got instanceof Uint8Array ? { mediaType: ref.mediaType, data: toBase64(got) } : { mediaType: got.mediaType, data: toBase64(got.bytes) });
			} catch (err) {
				notes.push(missingImageNote(ref));
				onMissing(ref, err);
			}
		}
		const loaded: PromptMessage = { ...m, content: notes.length === 0 ? m.content : [m.content, ...notes].filter((s) => s.trim() !== "").join("\n\n") };
		delete loaded.attachments;
		if (images.length > 0) loaded.images = [...(m.images ?? []), ...images];
		out.push(loaded);
	}
	return out;
}
