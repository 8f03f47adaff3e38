import { mkdtempSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { AuditLog, CustodyClient, DEFAULT_POLICY, loadPolicyFile, type Policy } from "@custody/shared";
import { ConfigError, type ServerConfig } from "../config/server-config.js";
import { startEmbeddedWorkspace } from "../embedded/embedded-workspace.js";
import { ConfirmationTokens } from "../guard/confirmation-token.js";
import { CurrencyBook } from "./currency-book.js";
import type { ServerContext } from "./server-context.js";
import { SERVER_NAME, SERVER_VERSION } from "./server-identity.js";

export interface StartedContext {
  ctx: ServerContext;
  /** Stops what the context started (the embedded emulator). */
  close(): Promise<void>;
}

/** The policy file (or the default), with read-only forced on by the flag. */
export function loadPolicy(config: Pick<ServerConfig, "policyPath" | "readOnly">): Policy {
  const policy = config.policyPath === null ? DEFAULT_POLICY : loadPolicyFile(config.policyPath);
  return config.readOnly ? { ...policy, read_only: true } : policy;
}

/** Builds the process's context from the configuration; starts the embedded workspace when no base URL is set. */
export async function startContext(config: ServerConfig, log: (line: string) => void): Promise<StartedContext> {
  const policy = loadPolicy(config);
  let baseUrl = config.baseUrl;
  let operator = config.operator;
  let close = async () => {};
  const embedded = baseUrl === null;
  if (baseUrl === null) {
    const workspace = await startEmbeddedWorkspace(log);
    baseUrl = workspace.baseUrl;
    operator ??= workspace.operator;
    close = workspace.close;
    log(`no base URL configured: started the emulator in-process at ${baseUrl} (demo workspace), acting as ${operator}`);
  } else if (operator === null) {
    throw new ConfigError("--operator (CUSTODY_OPERATOR): required with --base-url, the API operator to act as");
  }
  try {
    const auditPath = config.auditLogPath ?? (embedded ? join(mkdtempSync(join(tmpdir(), "custody-mcp-")), "audit.jsonl") : join(homedir(), ".custody-mcp", "audit.jsonl"));
    const now = () => new Date();
    const client = new CustodyClient({ baseUrl, operator, userAgent: `${SERVER_NAME}/${SERVER_VERSION}` });
    const ctx: ServerContext = {
      client,
      operator,
      policy,
      audit: new AuditLog(auditPath, now),
      tokens: new ConfirmationTokens({ ttlMs: config.tokenTtlSeconds * 1000, now }),
      currencies: new CurrencyBook(client),
      now,
      embedded,
    };
    log(`audit log: ${auditPath}${policy.read_only ? "; read-only mode" : ""}`);
    return { ctx, close };
  } catch (error) {
    await close();
    throw error;
  }
}
