import { failureEvent, errorMessage } from "@custody/shared";
import { z } from "zod";
import { recordDone, recordOperation, withAuditWarning } from "../../guard/audit-trail.js";
import { AccountInput, accountWithCurrency } from "../account-input.js";
import { defineTool } from "../define-tool.js";
import { AuditWarning, toolOutput } from "../tool-output.js";

export const syncAccount = defineTool({
  name: "sync_account",
  title: "Refresh an account's history",
  description: "Asks the workspace to refresh an account's history from the network, when a recent transaction is missing. Moves no funds.",
  toolset: "read",
  input: { account: AccountInput },
  output: toolOutput({ success: z.boolean(), account_id: z.number(), ...AuditWarning }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, call) {
    const { account } = await accountWithCurrency(call, args.account);
    const request = { account_id: account.id };
    let result: { success: boolean };
    try {
      result = await call.ctx.client.syncAccount(account.id, { signal: call.signal });
    } catch (error) {
      await recordOperation(call, { event: failureEvent(error), tool: "sync_account", request, error: errorMessage(error) });
      throw error;
    }
    const warning = await recordDone(call, { event: result.success ? "submitted" : "failed", tool: "sync_account", request });
    return withAuditWarning(
      {
        structured: { success: result.success, account_id: account.id },
        text: result.success ? `account ${account.id}: history refresh requested` : `account ${account.id}: the workspace reported the refresh as unsuccessful`,
      },
      warning,
    );
  },
});
