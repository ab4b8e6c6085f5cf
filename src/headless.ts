// The public headless surface: used by scripts/, bench/ and acceptance tests outside this repo.
// Names and signatures here may grow but never break. Nothing reachable from here imports 'obsidian'.
export type {
	ChatMessage,
	ChatSettings,
	GenerateRequest,
	GenerateResult,
	LLMAdapter,
	LLMErrorKind,
	PromptMessage,
	Role,
	Session,
	Usage,
} from "./chat/types";
export { LLMError } from "./providers/errors";
export type { FileStore } from "./sessions/store";
export { MemoryFileStore } from "./sessions/memoryStore";
