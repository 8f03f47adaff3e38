export { createMcpServer, type McpServerOptions } from "./assembly/create-server.js";
export type { ServerContext, DeferredContext, ContextSource } from "./server/server-context.js";
export { CurrencyBook } from "./server/currency-book.js";
export { startContext, loadPolicy, type StartedContext } from "./assembly/start-context.js";
export { serverInstructions } from "./server/instructions.js";
export { SERVER_NAME, SERVER_VERSION } from "./server/server-identity.js";
export {
  readCommand,
  replicaProblem,
  USAGE,
  ConfigError,
  type ServerConfig, type HttpOptions, type Command } from "./config/server-config.js";
export { DEFAULT_HTTP_PORT, DEFAULT_TOKEN_TTL_SECONDS, DEFAULT_SESSION_IDLE_SECONDS, DEFAULT_MAX_SESSIONS, OPTIONS } from "./config/options.js";
export { ConfirmationTokens, type TokenCheck, type TokenRefusal } from "./server/confirmation-token.js";
export { ConfirmPages } from "./confirm-page/confirm-pages.js";
export { WriteOutput, WriteStatus } from "./guard/write-output.js";
export { tokenFromText } from "./guard/token-text.js";
export { ALL_TOOLS, toolsFor } from "./tools/inventory.js";
export type { AnyTool, ToolDefinition, ToolHints } from "./tools/tool-definition.js";
export type { ToolCall } from "./server/tool-call.js";
export { startHttpServer, MCP_PATH, type RunningHttpServer } from "./transport/http-server.js";
export { serveStdio, type StdioSession } from "./transport/stdio-server.js";
export { WorkInFlight, SHUTTING_DOWN } from "./shutdown/work-in-flight.js";
export { DrainingTransport } from "./shutdown/draining-transport.js";
export { settle, SHUTDOWN_GRACE_MS, type Drainable } from "./shutdown/drainable.js";
export { startEmbeddedWorkspace, type EmbeddedWorkspace } from "./embedded/embedded-workspace.js";
export { verifyAuditCommand } from "./audit/verify-audit-command.js";
