import type { AuditLog, CustodyClient, Policy } from "@custody/shared";
import type { ConfirmationTokens } from "../guard/confirmation-token.js";
import type { CurrencyBook } from "./currency-book.js";

/** Everything a tool handler works with; one per process, shared by every MCP session. */
export interface ServerContext {
  client: CustodyClient;
  /** The operator every call is made as (X-Vendor-API-User). */
  operator: string;
  policy: Policy;
  audit: AuditLog;
  tokens: ConfirmationTokens;
  currencies: CurrencyBook;
  /** The clock of token expiry and of the daily limits; injectable for tests. */
  now: () => Date;
  /** Said in the server instructions: the workspace is the in-process emulator's demo. */
  embedded: boolean;
}
