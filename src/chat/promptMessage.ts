import type { PromptMessage } from "../core/types";

/**
 * What the model sees of a message: its role and text, its images, and its tool calls or the call a
 * result answers. Nothing else a stored message holds (ids, times, thinking, errors) goes to a model.
 */
export function toPromptMessage(m: PromptMessage): PromptMessage {
	const out: PromptMessage = { role: m.role, content: m.content };
	if (m.toolCalls !== undefined && m.toolCalls.length > 0) out.toolCalls = m.toolCalls;
	if (m.toolCallId !== undefined) out.toolCallId = m.toolCallId;
	if (m.name !== undefined) out.name = m.name;
	if (m.isError === true) out.isError = true;
	// Images go with their message: by reference until the engine reads them (turnImages.ts).
	if (m.attachments !== undefined && m.attachments.length > 0) out.attachments = m.attachments;
	if (m.images !== undefined && m.images.length > 0) out.images = m.images;
	return out;
}
