import { ResourceTemplate, UriTemplate, type McpServer } from "@modelcontextprotocol/server";
import type { DeferredContext } from "../server/server-context.js";
import { idVariable, jsonContents, readNamedResource } from "./resource-contents.js";

/** Parsed once per process: a 2026-07-28 request builds a server, not its resources' templates. */
const TRANSACTION = new UriTemplate("custody://transactions/{transaction_id}");

/** custody://transactions/{transaction_id}: one transaction, amounts in both units. Not listed: there are too many. */
export function registerTransactionResource(server: McpServer, session: DeferredContext): void {
  const template = new ResourceTemplate(TRANSACTION, { list: undefined });
  server.registerResource(
    "transaction",
    template,
    { title: "Transaction", description: "A transaction with its amounts and fees in base and display units.", mimeType: "application/json" },
    (uri, variables, extra) =>
      readNamedResource(uri, async () => {
        const ctx = await session.load();
        const transaction = await ctx.client.getTransaction(idVariable(variables, "transaction_id"), { signal: extra.mcpReq.signal });
        const { transactionView, creatorNames } = await import("../views/resource-views.js");
        const [currency, usernames] = await Promise.all([
          ctx.currencies.get(transaction.currency, extra.mcpReq.signal),
          creatorNames(ctx.client, [transaction.created_by], extra.mcpReq.signal),
        ]);
        return jsonContents(uri, transactionView(transaction, currency, usernames));
      }),
  );
}
