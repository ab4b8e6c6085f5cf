// The engine's branch operations as the panel uses them (satisfied by ChatService): regenerate,
// edit, continue, delete a turn, and the alternatives ("2 / 3") with switching between them.
import type { ChatMessage } from "../core/types";
import type { SendOptions } from "../chat/ChatService";
import type { Alternatives } from "../sessions/branchOps";

export type { Alternatives };

export interface BranchPort {
	regenerate(opts?: SendOptions): Promise<ChatMessage>;
	editMessage(id: string, text: string, opts?: SendOptions): Promise<ChatMessage>;
	continueAnswer(opts?: SendOptions): Promise<ChatMessage>;
	deleteTurn(id: string): Promise<void>;
	restoreTurn(id: string): Promise<void>;
	alternatives(id: string): Promise<Alternatives>;
	switchBranch(id: string): Promise<void>;
}
