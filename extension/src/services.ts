import type { AccessTokenStore } from "./connection/access-token-store.js";
import type { Connection } from "./connection/connection.js";
import type { EmulatorSession } from "./connection/emulator-session.js";
import type { ExtensionAudit } from "./guard/extension-audit.js";
import type { WriteGuard } from "./guard/guarded-write.js";
import type { Prompter } from "./input/prompter.js";
import type { CustodyMcpProvider } from "./mcp/mcp-server-provider.js";
import type { OutputLog } from "./output/output-log.js";
import type { ViewRegistry } from "./views/view-registry.js";
import type { WaitingProvider } from "./views/waiting-provider.js";

/** What commands work with; built once in activate. */
export interface Services {
  connection: Connection;
  output: OutputLog;
  prompter: Prompter;
  guard: WriteGuard;
  audit: ExtensionAudit;
  views: ViewRegistry;
  /** The writes assistants prepared for this person ("Waiting for you"). */
  waiting: WaitingProvider;
  tokens: AccessTokenStore;
  emulator: EmulatorSession;
  /** The MCP server definition this window provides (none when the package carries no server). */
  mcp: CustodyMcpProvider;
  /** Refreshes the views and the status bar. */
  refreshAll(): void;
}
