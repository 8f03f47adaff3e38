import { CustodyClient, EMULATOR_KEY_HEADER, FileGuardStore, WriteRoad, type GuardStore, type Policy } from "@custody/shared";
import { ConfirmationTokens } from "../guard/confirmation-token.js";
import { CurrencyBook } from "./currency-book.js";
import type { ServerContext } from "./server-context.js";
import { AUDIT_SURFACE } from "../guard/audit-trail.js";
import { SERVER_NAME, SERVER_VERSION } from "./server-identity.js";

export interface ContextSettings {
  baseUrl: string;
  operator: string;
  policy: Policy;
  /** The embedded store's audit log, or a store opened at start (a database). */
  store: { kind: "file"; path: string } | { kind: "opened"; store: GuardStore };
  tokenTtlMs: number;
  /** The token key replicas share; null: a random one for this process. */
  tokenSecret: Buffer | null;
  embedded: boolean;
  /** Sent as X-Emulator-Key on every call: the embedded emulator's key, or the configured one. */
  emulatorKey: string | null;
}

/** The process's context: the client, the guard's store (its audit chain verified here), the write road and the token signer. */
export function buildContext(settings: ContextSettings): ServerContext {
  const now = () => new Date();
  const headers: Record<string, string> = settings.emulatorKey === null ? {} : { [EMULATOR_KEY_HEADER]: settings.emulatorKey };
  const client = new CustodyClient({ baseUrl: settings.baseUrl, operator: settings.operator, userAgent: `${SERVER_NAME}/${SERVER_VERSION}`, headers });
  const store = settings.store.kind === "opened" ? settings.store.store : new FileGuardStore(settings.store.path, now);
  return {
    client,
    operator: settings.operator,
    policy: settings.policy,
    store,
    road: new WriteRoad({ client, operator: settings.operator, policy: () => settings.policy, store, surface: AUDIT_SURFACE, intentTtlMs: settings.tokenTtlMs }),
    tokens: new ConfirmationTokens(settings.tokenSecret === null ? {} : { secret: settings.tokenSecret }),
    currencies: new CurrencyBook(client),
    now,
    embedded: settings.embedded,
  };
}
