import {
  CustodyClient,
  EMULATOR_KEY_HEADER,
  FileGuardStore,
  grantFor,
  grantOperator,
  WriteRoad,
  type AuditSealKey,
  type GuardStore,
  type Policy,
} from "@custody/shared";
import { ConfirmationTokens } from "../server/confirmation-token.js";
import { CurrencyBook } from "../server/currency-book.js";
import type { ServerContext } from "../server/server-context.js";
import type { ConfirmPages } from "../confirm-page/confirm-pages.js";
import { AUDIT_SURFACE } from "../guard/audit-trail.js";
import { SERVER_NAME, SERVER_VERSION } from "../server/server-identity.js";

export interface ContextSettings {
  baseUrl: string;
  operator: string;
  policy: Policy;
  /** The embedded store's audit log (and its seal key; default: the default key), or a store opened at start (a database). */
  store: { kind: "file"; path: string; sealKey?: AuditSealKey } | { kind: "opened"; store: GuardStore };
  tokenTtlMs: number;
  /** The token key replicas share; null: a random one for this process. */
  tokenSecret: Buffer | null;
  embedded: boolean;
  /** Sent as X-Emulator-Key on every call: the embedded emulator's key, or the configured one. */
  emulatorKey: string | null;
  pages: ConfirmPages;
  /** Each road built is added to it, so that a stop closes them before the store. */
  roads?: WriteRoad[];
}

/**
 * The process's context: the guard's store (its audit chain verified here), the token signer, and
 * for each API operator calls are made as (the server's, and those the policy's roles name, built
 * on first use) a client, a write road and a currency book.
 */
export function buildContext(settings: ContextSettings): ServerContext {
  const now = () => new Date();
  const headers: Record<string, string> = settings.emulatorKey === null ? {} : { [EMULATOR_KEY_HEADER]: settings.emulatorKey };
  const store =
    settings.store.kind === "opened"
      ? settings.store.store
      : new FileGuardStore(settings.store.path, now, settings.store.sealKey === undefined ? {} : { sealKey: settings.store.sealKey });
  const tokens = new ConfirmationTokens(settings.tokenSecret === null ? {} : { secret: settings.tokenSecret });
  const byOperator = new Map<string, ServerContext>();
  const contextOf = (operator: string): ServerContext => {
    const known = byOperator.get(operator);
    if (known !== undefined) return known;
    const client = new CustodyClient({ baseUrl: settings.baseUrl, operator, userAgent: `${SERVER_NAME}/${SERVER_VERSION}`, headers });
    const ctx: ServerContext = {
      client,
      operator,
      policy: settings.policy,
      store,
      road: new WriteRoad({ client, operator, policy: () => settings.policy, store, surface: AUDIT_SURFACE, intentTtlMs: settings.tokenTtlMs }),
      tokens,
      currencies: new CurrencyBook(client),
      now,
      embedded: settings.embedded,
      pages: settings.pages,
      forPerson: (person) => contextOf(grantOperator(grantFor(settings.policy, person), settings.operator)),
    };
    byOperator.set(operator, ctx);
    settings.roads?.push(ctx.road);
    return ctx;
  };
  return contextOf(settings.operator);
}
