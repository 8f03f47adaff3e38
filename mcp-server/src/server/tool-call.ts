import type { Person } from "@custody/shared";
import type { Server } from "@modelcontextprotocol/server";
import type { PersonInput } from "./elicitation.js";
import type { ServerContext } from "./server-context.js";

/** What a handler receives besides its arguments. */
export interface ToolCall {
  ctx: ServerContext;
  /** The MCP session's low-level server (on 2026-07-28, the request's own): client capabilities. */
  session: Server;
  /** Whether the person can be asked through the client, and the answer a retried call carries. */
  input: PersonInput;
  /** The signed-in person the session belongs to (an OAuth access token's subject), or null for a single user (stdio, the shared bearer token). */
  person: Person | null;
  signal: AbortSignal;
  /** Sends a progress notification when the client asked for them (a progress token), so a long call does not time out. */
  progress(message: string): void;
  /** Tells the subscribers of the account and the transaction (on every replica) that a write sent changed them. */
  written(accountId: number, transactionId: number | null): void;
}
