import { mkdtempSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_POLICY, loadPolicyFile, readLocalSecretFile, type Policy } from "@custody/shared";
import { ConfigError, type ServerConfig } from "../config/server-config.js";
import type { ServerContext, DeferredContext } from "./server-context.js";

export interface StartedContext {
  /** The process's context; its client, audit log and tokens are built on the first call (ctx.load()). */
  ctx: DeferredContext;
  /** Stops what the context started (the embedded emulator). */
  close(): Promise<void>;
}

/** The policy file (or the default), with read-only forced on by the flag. */
export function loadPolicy(config: Pick<ServerConfig, "policyPath" | "readOnly">): Policy {
  const policy = config.policyPath === null ? DEFAULT_POLICY : loadPolicyFile(config.policyPath);
  return config.readOnly ? { ...policy, read_only: true } : policy;
}

function readEmulatorKey(path: string): string {
  try {
    return readLocalSecretFile(path, "--emulator-key-file (CUSTODY_EMULATOR_KEY_FILE)");
  } catch (error) {
    throw new ConfigError((error as Error).message, { cause: error });
  }
}

/**
 * Reads the policy and settles the workspace (starting the embedded one when no base URL is set);
 * the rest of the context is imported and built on the first call that needs it, so that a start
 * loads neither the client nor the audit log (whose chain is verified then: a broken one refuses
 * every call, naming the file).
 */
export async function startContext(config: ServerConfig, log: (line: string) => void): Promise<StartedContext> {
  const policy = loadPolicy(config);
  let baseUrl = config.baseUrl;
  let operator = config.operator;
  let emulatorKey: string | null = null;
  let close = async () => {};
  const embedded = baseUrl === null;
  if (baseUrl === null) {
    // Imported here, not at the top: with a base URL the emulator is never loaded (a chunk of the bundle).
    const { startEmbeddedWorkspace } = await import("../on-demand/optional-modules.js");
    const workspace = await startEmbeddedWorkspace(log);
    baseUrl = workspace.baseUrl;
    operator ??= workspace.operator;
    emulatorKey = workspace.key;
    close = workspace.close;
    log(`no base URL configured: started the emulator in-process at ${baseUrl} (demo workspace), acting as ${operator}`);
  } else if (operator === null) {
    throw new ConfigError("--operator (CUSTODY_OPERATOR): required with --base-url, the API operator to act as");
  } else if (config.emulatorKeyFile !== null) {
    emulatorKey = readEmulatorKey(config.emulatorKeyFile);
  }
  try {
    const auditPath = config.auditLogPath ?? (embedded ? join(mkdtempSync(join(tmpdir(), "custody-mcp-")), "audit.jsonl") : join(homedir(), ".custody-mcp", "audit.jsonl"));
    const settings = { baseUrl, operator, policy, auditPath, tokenTtlMs: config.tokenTtlSeconds * 1000, embedded, emulatorKey };
    let built: Promise<ServerContext> | undefined;
    const load = () => (built ??= import("../on-demand/call-time-modules.js").then(({ buildContext }) => buildContext(settings)));
    log(`audit log: ${auditPath}${policy.read_only ? "; read-only mode" : ""}`);
    return { ctx: { operator, policy, embedded, baseUrl, load }, close };
  } catch (error) {
    await close();
    throw error;
  }
}
