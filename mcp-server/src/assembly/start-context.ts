import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DEFAULT_POLICY,
  defaultAuditLogPath,
  loadPolicyFile,
  readLocalSecretFile,
  sealedStart,
  type AuditSealKey,
  type ChangeBus,
  type GuardStore,
  type Policy,
  type WriteRoad,
  errorMessage,
} from "@custody/shared";
import { ConfigError, replicaProblem, type ServerConfig } from "../config/server-config.js";
import { readTokenSecretFile } from "../guard/token-secret-file.js";
import { sealKeySetting } from "../guard/seal-key-setting.js";
import type { ContextSettings } from "../on-demand/build-context.js";
import { ConfirmPages } from "../confirm-page/confirm-pages.js";
import { commandOpener } from "../confirm-page/person-opener.js";
import type { ServerContext, DeferredContext } from "../server/server-context.js";
import { inProcessChanges, resourceChanges, type ResourceChanges } from "../subscriptions/resource-changes.js";
import { watchedResource } from "../resources/resource-uris.js";
import { OPTIONS, settingName } from "../config/options.js";

export interface StartedContext {
  /** The process's context; its client, audit log and tokens are built on the first call (ctx.load()). */
  ctx: DeferredContext;
  /** Resource changes: over the database's LISTEN/NOTIFY with a store in PostgreSQL (replicas), this process's own otherwise. */
  changes: ResourceChanges;
  /** Stops what the context started (the roads' background look-ups, the embedded emulator, the database store's connections). */
  close(): Promise<void>;
}

/** The policy file (or the default), with read-only and the person's confirmation forced on by the flags (a flag never loosens the file). */
export function loadPolicy(config: Pick<ServerConfig, "policyPath" | "readOnly" | "confirmation">): Policy {
  const policy = config.policyPath === null ? DEFAULT_POLICY : loadPolicyFile(config.policyPath);
  return {
    ...policy,
    ...(config.readOnly ? { read_only: true } : {}),
    ...(config.confirmation === "person" ? { confirmation: "person" as const } : {}),
  };
}

function readEmulatorKey(path: string): string {
  try {
    return readLocalSecretFile(path, settingName(OPTIONS.emulatorKeyFile));
  } catch (error) {
    throw new ConfigError(errorMessage(error), { cause: error });
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
  const replicas = replicaProblem(config);
  if (replicas !== null) throw new ConfigError(replicas);
  const tokenSecret = config.tokenSecretFile === null ? null : readTokenSecretFile(config.tokenSecretFile);
  const sealKey = sealKeySetting(config.auditSealKeyFile);
  let baseUrl = config.baseUrl;
  let operator = config.operator;
  let emulatorKey: string | null = null;
  let close = async () => {};
  const embedded = baseUrl === null;
  if (baseUrl === null) {
    // Imported here, not at the top: with a base URL the emulator is never loaded (a chunk of the bundle).
    const { startEmbeddedWorkspace } = await import("../embedded/embedded-workspace.js");
    const workspace = await startEmbeddedWorkspace(log);
    baseUrl = workspace.baseUrl;
    operator ??= workspace.operator;
    emulatorKey = workspace.key;
    close = workspace.close;
    log(`no base URL configured: started the emulator in-process at ${baseUrl} (demo workspace), acting as ${operator}`);
  } else if (operator === null) {
    throw new ConfigError(`${settingName(OPTIONS.operator)}: required with --base-url, the API operator to act as`);
  } else if (config.emulatorKeyFile !== null) {
    emulatorKey = readEmulatorKey(config.emulatorKeyFile);
  }
  let opened: GuardStore | null = null;
  try {
    let store: ContextSettings["store"];
    if (config.storeUrl !== null) {
      // Opened at start, so a database that cannot be reached or migrated stops the server at once.
      opened = await openDatabaseStore(config.storeUrl, log, sealKey);
      store = { kind: "opened", store: opened };
      log(`guard store: ${opened.location} (PostgreSQL)${policy.read_only ? "; read-only mode" : ""}`);
    } else {
      const path = config.auditLogPath ?? (embedded ? join(mkdtempSync(join(tmpdir(), "custody-mcp-")), "audit.jsonl") : defaultAuditLogPath());
      // The seal and the ledger's MAC are checked now (the seal, one line of the log and the
      // ledger read), so a shortened log or an edited ledger stops the server at once.
      sealedStart(path, sealKey);
      store = { kind: "file", path, sealKey };
      log(`audit log: ${path}${policy.read_only ? "; read-only mode" : ""}`);
    }
    const pages = new ConfirmPages(commandOpener(config.confirmOpener, log));
    const roads: WriteRoad[] = [];
    const settings: ContextSettings = {
      baseUrl,
      operator,
      policy,
      store,
      tokenTtlMs: config.tokenTtlSeconds * 1000,
      tokenSecret,
      embedded,
      emulatorKey,
      pages,
      roads,
    };
    let built: Promise<ServerContext> | undefined;
    const load = () => (built ??= import("../on-demand/build-context.js").then(({ buildContext }) => buildContext(settings)));
    // A store opened at start is a server's: its road is built now too, so the writes a stopped process left
    // unanswered are looked up at once, not at the first call. A failure here is the first call's to report.
    if (opened !== null) load().catch(() => undefined);
    const database = opened;
    const stopWorkspace = close;
    const ctx: DeferredContext = { operator, policy, embedded, baseUrl, pages, load };
    const watching = { log, intervalMs: config.watchIntervalSeconds * 1000 };
    const changes = config.storeUrl === null ? inProcessChanges(ctx, watching) : resourceChanges(ctx, await openChangeChannel(config.storeUrl, log), watching);
    return {
      ctx,
      changes,
      close: async () => {
        await changes.close();
        await pages.close();
        await Promise.all(roads.map((road) => road.close()));
        await database?.close();
        await stopWorkspace();
      },
    };
  } catch (error) {
    await opened?.close();
    await close();
    throw error;
  }
}

// The guard's store in PostgreSQL and its driver are imported only when --store names a database (a
// chunk of the bundle of their own, as every dynamic import is), so a start with the embedded store never loads them.
async function openChangeChannel(url: string, log: (line: string) => void): Promise<ChangeBus> {
  const { openPostgresChangeChannel } = await import("@custody/shared/postgres-store");
  try {
    return await openPostgresChangeChannel(url, { accepts: (uri) => watchedResource(uri) !== null, log });
  } catch (error) {
    throw new ConfigError(errorMessage(error), { cause: error });
  }
}

async function openDatabaseStore(url: string, log: (line: string) => void, sealKey: AuditSealKey): Promise<GuardStore> {
  const { openPostgresGuardStore } = await import("@custody/shared/postgres-store");
  try {
    return await openPostgresGuardStore(url, { log, sealKey });
  } catch (error) {
    // The store's message names the database with its password masked.
    throw new ConfigError(errorMessage(error), { cause: error });
  }
}
