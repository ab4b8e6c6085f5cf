// The public headless surface: used by scripts/, bench/ and acceptance tests outside this repo.
// Names and signatures here may grow but never break. Nothing reachable from here imports 'obsidian'.
export type {
	AnswerStats,
	SummaryStats,
	ChatMessage,
	ChatSettings,
	ContextSource,
	ContextSourceKind,
	GenerateRequest,
	GenerateResult,
	ImageRef,
	ImageTokenRule,
	LLMAdapter,
	LLMErrorKind,
	PromptImage,
	PromptMessage,
	Role,
	SentPassage,
	Session,
	SourceFit,
	Tool,
	ToolApproval,
	ToolCall,
	ToolCallProgress,
	ToolSpec,
	Usage,
} from "./core/types";
export { LLMError, isImagesUnsupported } from "./providers/errors";
// Images: what they cost per provider, the size they are sent at, and how a send reads them.
export { imageTokens, openaiImageTokens, anthropicImageTokens, openaiTiles, downscaleTarget, DEFAULT_OLLAMA_IMAGE_TOKENS, MAX_LONG_SIDE, MAX_PIXELS } from "./core/imageSize";
export type { Size } from "./core/imageSize";
export type { ImageReader } from "./chat/turnImages";
export { LLM_ERROR_CODES } from "./providers/errors";
export type { LLMErrorCode } from "./providers/errors";
export { CONNECTION_CODES } from "./providers/connectionCodes";
export type { ConnectionCode } from "./providers/connectionCodes";
export { STATUS_CODES, WARNING_CODES } from "./core/notices";
export type { Notice, NoticeParams, StatusCode, WarningCode, WarningListener } from "./core/notices";
export type { FileStore } from "./sessions/store";
export { MemoryFileStore } from "./sessions/memoryStore";
export { estimateTokens, safeBudget, ESTIMATOR_WORST_RATIO } from "./chat/tokens";
export { estimateMessageTokens, estimatePromptTokens, MESSAGE_OVERHEAD_TOKENS, PROMPT_OVERHEAD_TOKENS } from "./chat/promptCost";
export { TokenCalibration, calibratedEstimate, parseCalibrationData } from "./chat/calibration";
export type { CalibrationData, TokenCalibrationOptions } from "./chat/calibration";
export { calibratedTokens } from "./chat/calibration";
export { DEFAULT_MARGIN, MIN_MARGIN, MAX_MARGIN, learnedMargin, parseMarginRecord } from "./chat/safetyMargin";
export type { MarginRecord, SafetyMargin } from "./chat/safetyMargin";
export { SessionManager, SessionNotFoundError } from "./sessions/SessionManager";
export { NodeFileStore } from "./sessions/nodeStore";
export type { FileStat } from "./sessions/store";
export type { SearchHit, SearchOptions, SessionManagerOptions, SessionSummary, WriteOptions } from "./sessions/types";
export type { OverflowReport } from "./providers/overflowReport";
export { createAdapter, DEFAULT_BASE_URLS, errorKind, fetchTransport, loadNodeTransport } from "./providers";
export type {
	ConnectionDiagnosis,
	ConnectionKind,
	ModelInfo,
	ProviderAdapter,
	ProviderConfig,
	ProviderGenerateResult,
	ProviderName,
	Transport,
	TransportInit,
} from "./providers";
export { DEFAULT_CHAT_SETTINGS } from "./core/types";
export { ChatService } from "./chat/ChatService";
export type { ChatEvent, ChatServiceOptions, CheckpointTimers, PromptPreview, SendOptions, ToolCard, ToolCardState } from "./chat/ChatService";
// Branches: regenerate, edit, continue, delete a turn, alternatives ("2 / 3") and the records behind them.
export type { Alternatives } from "./chat/ChatService";
// MCP tools in the chat (ChatServiceOptions.mcpTools): the seam a server hub implements, and the
// schema cleaning per dialect that every outside tool goes through.
export type { TurnToolSource, OutsideToolProblem } from "./chat/ChatService";
export { cleanToolSchema, schemaProblem, type SchemaDialect, type CleanedSchema } from "./chat/toolSchema";
export { CONTINUE_INSTRUCTION } from "./chat/turnMode";
export type { HideRecord, SwitchRecord } from "./sessions/records";
// The chat's tools switch as saved (ChatService.setTools, SessionManager.setTools).
export type { ToolsRecord } from "./sessions/records";
// The tool loop: its messages to the model and the permission timeout.
export { TOOLS_UNSUPPORTED_WARNING, ANSWER_NOW_NOTE } from "./chat/toolLoop";
export { APPROVAL_TIMEOUT_MS, declined } from "./chat/toolRound";
// The bounds of a turn's calls: 16 calls a round run, 2 MB of results a turn are saved;
// each call goes by the engine's own id (ChatServiceOptions.callIds), the server's kept as ToolCall.serverId.
export { MAX_CALLS_A_ROUND, TOO_MANY_CALLS } from "./chat/toolRound";
export { MAX_TURN_RESULT_BYTES, TURN_RESULTS_CUT_NOTE } from "./chat/turnResultBytes";
export { randomCallId } from "./chat/callIds";
export type { CallIdSource } from "./chat/callIds";
export { DEFAULT_MAX_TOOL_ROUNDS } from "./chat/chatSettings";
export { ChatError, chatErrorCode } from "./chat/errors";
export type { ChatErrorCode, ChatErrorDetails } from "./chat/errors";
export { buildPrompt, composeSystemMessage } from "./chat/prompt";
export type { BuiltPrompt, ContextInclusion, DocumentContext, PromptInput } from "./chat/prompt";
export { compactHistory, compactionBudget, CONDENSED_PREFIX } from "./chat/compaction";
export type { CompactionBudget, CompactionInput, CompactionResult } from "./chat/compaction";
export { SUMMARY_INSTRUCTION, PREVIOUS_SUMMARY_PREFIX } from "./chat/summarizer";
export type { SummaryRequestCost } from "./chat/summarizer";
export { normalizeChatSettings } from "./chat/chatSettings";
// The plugin's settings (a superset of ChatSettings, with the four budget settings by name).
export { DEFAULT_SETTINGS, validateSettings } from "./settings/settings";
export type { DiscoverSettings, SettingsIssue } from "./settings/settings";
// What each answer cost: its saved stats, a chat's totals per model, and prices the person entered.
export { asAnswerStats, billedTokens, chatUsage, tokensPerSecond } from "./core/answerStats";
export type { ChatUsage, ModelUsage } from "./core/answerStats";
export { answerCost, chatCost, parsePrice, priceFor, tokensCost, DEFAULT_CURRENCY } from "./settings/prices";
export type { ModelPrice } from "./settings/prices";
// Context sources sharing one budget: the allocation, the fitter contract and its default.
export { fitSources, orderSources, sourceQuery, waterFill, allocateTiers, minimumShare, SOURCE_TIERS, QUERY_RECENT_MESSAGES } from "./chat/sourceBudget";
export type { FittedSources, SourcesInput } from "./chat/sourceBudget";
export type { FitInput, FittedSource, SourceFitter } from "./chat/sourceFitter";
export { topCutFitter } from "./chat/topCutFitter";
export { defaultSourceFitter } from "./chat/defaultFitter";
export { SOURCES_PREAMBLE, escapeSourceText } from "./chat/sourceBlock";
// Relevance fitting (a SourceFitter: the FitInput and FittedSource above) and the vault's lexical index.
export { NoteIndex, NOTE_INDEX_FORMAT, NOTE_INDEX_VERSION } from "./context/NoteIndex";
export type { NoteSearchHit } from "./context/NoteIndex";
export { fitSource } from "./context/relevanceFit";
export { indexInSlices } from "./context/indexInSlices";
export type { NoteToIndex, SliceOptions, SliceReport } from "./context/indexInSlices";
export { terms } from "./context/terms";
export { preparePassages } from "./context/passageCache";
export type { SliceTiming } from "./context/steps";
// The built-in vault tools over an injected VaultAccess, their undo journal and the permission rules.
// `VaultTool` is the tools' Tool: core's Tool (above) plus a write's `preview`.
export { createVaultTools, ChangeJournal, ToolError } from "./tools";
export type { NoteChange, Tool as VaultTool, ToolPreview, ToolRunContext, ToolScope, VaultAccess, VaultNote, VaultTools } from "./tools";
export { PermissionRules } from "./tools/permissions";
export type { AccessDecision, AlwaysRule, Approve, AskFn, RuleStore } from "./tools/permissions";
// Scoped standing permission: where an "Always allow" applies, what the card is told, the agent's
// part; and what in a write's text another plugin may run (such a write is asked every time).
export { folderScopeOf, writeTargets } from "./tools/permissions";
export type { AgentGrants, AlwaysScope, AskInfo } from "./tools/permissions";
export { writeMarks, marksIn, CONTENT_MARKS } from "./tools/contentMarks";
export type { ContentMark } from "./tools/contentMarks";
export { MemoryVault, tagsOf } from "./tools/memoryVault";
// Trust: the one path comparison every fence uses, and where no write may land.
export { isFencedPath, isWithinFolder, pathKey, fenceOf } from "./core/pathFences";
export type { Fences } from "./core/pathFences";
// Trust: an agent is used only as the person approved it (the digest of its privileged fields), and
// a key goes only to the origin it was chosen for.
export { agentDigest, agentSnapshot, approvalState, agentAllowsUnasked, PRIVILEGED_FIELDS } from "./agents/agentTrust";
export type { AgentApproval, AgentApprovalState, AgentSnapshot, PrivilegedField } from "./agents/agentTrust";
export { agentFromNote } from "./agents/agent";
export type { Agent, AgentIssue, AgentResult } from "./agents/agent";
export { keyFor, boundKey, originOf } from "./settings/keyBinding";
export type { KeyBinding, KeySettings, ServerKey, AgentServerFields } from "./settings/keyBinding";
// MCP servers: McpClient.connect(config, { signal, transport }) over stdio (desktop) or Streamable
// HTTP; listTools() gives `<server>__<tool>` tools for ChatServiceOptions.tools (access "write").
export { McpClient, McpError, McpSession, convertToolResult, serverKind, PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION, MAX_MESSAGE_CHARS, DEFAULT_TIMEOUT_MS as MCP_DEFAULT_TIMEOUT_MS, MAX_LOG_LINES as MCP_MAX_LOG_LINES, MAX_DESCRIPTION_CHARS as MCP_MAX_DESCRIPTION_CHARS } from "./mcp";
export type { OAuthClient as McpOAuthClient, OAuthOptions as McpOAuthOptions, OAuthTokens as McpOAuthTokens } from "./mcp";
export type { McpServerConfig, McpServerKind, McpConnectOptions, McpErrorKind, McpProgress, McpToolInfo, ServerInfo as McpServerInfo, ConvertedResult as McpConvertedResult, McpImage, LogLine as McpLogLine } from "./mcp";
// Edit with Discover: a proposal for a stretch of a note as hunks (offsets into the original),
// any subset of which applies, in any order.
export { planEdit, applyHunks } from "./editor/hunks";
export type { Hunk } from "./editor/hunks";
// Canvases (JSON Canvas 1.0) as sources: the canvas as one text, and the notes its file cards point to
// (given their texts) each as its own source under it; readCanvas returns those notes for a caller to read.
export { canvasToSources, canvasSources, readCanvas, readCanvasSteps } from "./context/canvasSources";
export type { CanvasNoteRef, CanvasReading, NoteState } from "./context/canvasSources";

// PDFs as sources: pages through any reader (pdf.js in the app, pdfjs-dist in scripts), each a
// section headed "p. N"; a scan (no text layer) gives no source.
// openPdfWith reads a PDF's bytes through a pdf.js module (the app's, or pdfjs-dist's legacy build in
// Node) exactly as the app does; renderPdfPages is read_note's text for a page range.
export { readPdf, pdfSource, pdfPageText, isScanned, pageHeading, openPdfWith } from "./context/pdfSources";
export type { PdfReader, PdfReading, PdfReadOptions, PdfTextItem, PdfJsLib, PdfJsDocument } from "./context/pdfSources";
export { parsePageRange, renderPdfPages } from "./tools/pdfPages";
export type { PageRange } from "./tools/pdfPages";
