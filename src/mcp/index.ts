// The MCP client: connect to a server (stdio or Streamable HTTP), list its tools as the engine's
// tools, call them. See McpClient.ts; the wire is protocol.ts and session.ts.
export { McpClient, type McpConnectOptions } from "./McpClient";
export { serverKind, type McpServerConfig, type McpServerKind } from "./config";
export { McpError, PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION, MAX_MESSAGE_CHARS, DEFAULT_TIMEOUT_MS, MAX_LOG_LINES, type McpErrorKind } from "./protocol";
export { McpSession, type McpProgress, type McpToolInfo, type ServerInfo } from "./session";
export { convertToolResult, type ConvertedResult, type McpImage } from "./toolResult";
export { MAX_DESCRIPTION_CHARS, toolName, toolDescription } from "./mcpTools";
export type { LogLine } from "./log";
export { OAuth, MAX_AUTHORIZATIONS, parseChallenge, metadataUrls, type OAuthClient, type OAuthOptions, type OAuthTokens } from "./oauth";
