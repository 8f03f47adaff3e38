import { AuditLog, CustodyClient, EMULATOR_KEY_HEADER, type Policy } from "@custody/shared";
import { ConfirmationTokens } from "../guard/confirmation-token.js";
import { CurrencyBook } from "./currency-book.js";
import type { ServerContext } from "./server-context.js";
import { SERVER_NAME, SERVER_VERSION } from "./server-identity.js";

export interface ContextSettings {
  baseUrl: string;
  operator: string;
  policy: Policy;
  auditPath: string;
  tokenTtlMs: number;
  embedded: boolean;
  /** Sent as X-Emulator-Key on every call: the embedded emulator's key, or the configured one. */
  emulatorKey: string | null;
}

/** The process's context: the client, the audit log (its chain verified here) and the token issuer. */
export function buildContext(settings: ContextSettings): ServerContext {
  const now = () => new Date();
  const headers: Record<string, string> = settings.emulatorKey === null ? {} : { [EMULATOR_KEY_HEADER]: settings.emulatorKey };
  const client = new CustodyClient({ baseUrl: settings.baseUrl, operator: settings.operator, userAgent: `${SERVER_NAME}/${SERVER_VERSION}`, headers });
  return {
    client,
    operator: settings.operator,
    policy: settings.policy,
    audit: new AuditLog(settings.auditPath, now),
    tokens: new ConfirmationTokens({ ttlMs: settings.tokenTtlMs, now }),
    currencies: new CurrencyBook(client),
    now,
    embedded: settings.embedded,
  };
}
