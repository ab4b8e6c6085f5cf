// The turns behind Regenerate, Edit and Continue: each runs through TurnFlow like a typed message
// (sources, streaming, Stop, a failure with Retry), but calls its branch operation instead of
// sendMessage, and first takes off the screen what the new branch replaces.
import type { ChatMessage } from "../../../core/types";
import type { ChatPort, SendOptions } from "../../ports";
import type { MessageList } from "../MessageList";
import type { Turn } from "../turns";

function lastUserIndex(messages: readonly ChatMessage[]): number {
	for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === "user") return i;
	return -1;
}

function branchTurn(text: string, run: (chat: ChatPort, options: SendOptions) => Promise<ChatMessage>, onRecord: boolean, giveBack?: Turn["giveBack"]): Turn {
	const turn: Turn = { text, includeHistory: true, withContext: true, wholeNote: false, fromInput: false, run, onRecord };
	if (giveBack) turn.giveBack = giveBack;
	return turn;
}

/** A new answer to the last message of the person's; the answer it replaces stays an alternative. */
export function regenerateTurn(messages: readonly ChatMessage[], list: MessageList): Turn {
	const at = lastUserIndex(messages);
	const question = messages[at];
	return branchTurn(
		question?.content ?? "",
		(chat, options) => {
			if (!chat.regenerate) return Promise.reject(new Error("This engine cannot regenerate."));
			// The new answer streams where the old one was; the arrows bring the old one back.
			list.setMessages(chat.messages.slice(0, lastUserIndex(chat.messages) + 1));
			list.startStreaming();
			return chat.regenerate(options);
		},
		true,
	);
}

/**
 * The person's message `id` sent again as `text`: the chat branches before it. Retry after a
 * failure answers the edited message again rather than editing once more. Text that was never
 * saved goes to `giveBack` (the edit box again).
 */
export function editTurn(id: string, text: string, list: MessageList, giveBack?: Turn["giveBack"]): Turn {
	let tried = false;
	return branchTurn(
		text,
		(chat, options) => {
			// Retry: once the edited text is saved (the last message of the person's, in place of `id`), it is answered again.
			const saved = chat.messages[lastUserIndex(chat.messages)];
			if (tried && saved !== undefined && saved.id !== id && saved.content === text && chat.regenerate) {
				list.setMessages(chat.messages.slice(0, lastUserIndex(chat.messages) + 1));
				list.startStreaming();
				return chat.regenerate(options);
			}
			if (!chat.editMessage) return Promise.reject(new Error("This engine cannot edit messages."));
			const at = chat.messages.findIndex((m) => m.id === id);
			// The edited message and its answer go; the new message comes as the engine saves it.
			if (at >= 0) list.setMessages(chat.messages.slice(0, at));
			tried = true;
			return chat.editMessage(id, text, options);
		},
		false,
		giveBack,
	);
}

/**
 * Goes on with a stopped or interrupted last answer: the continuation streams on after its text.
 * However it ends short of an answer (refused, failed, stopped before it began), the answer is
 * shown as saved, with its actions, in place of the bubble the continuation streamed into.
 */
export function continueTurn(messages: readonly ChatMessage[], answer: ChatMessage, list: MessageList): Turn {
	const question = messages[lastUserIndex(messages)];
	return branchTurn(
		question?.content ?? "",
		(chat, options) => {
			if (!chat.continueAnswer) return Promise.reject(new Error("This engine cannot continue answers."));
			const current = chat.messages;
			const last = current[current.length - 1];
			if (last?.id === answer.id) {
				// The answer so far becomes the streaming bubble; the saved answer replaces it when done.
				list.setMessages(current.slice(0, -1));
				list.startStreaming();
				list.appendToken(last.content);
			}
			return chat.continueAnswer(options).catch((err: unknown) => {
				const saved = chat.messages.find((m) => m.id === answer.id);
				if (saved) list.upsert(saved);
				throw err;
			});
		},
		true,
	);
}
