import {
  intentWrite,
  keptRequestDifferences,
  SealedIntent,
  STOPPED_BEFORE_RESERVING,
  type GuardStore,
  type KeptForm,
  type Network,
  type WriteRequest,
} from "@custody/shared";
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { TokenBinding } from "../server/confirmation-token.js";
import type { ToolCall } from "../server/tool-call.js";
import { recordOperation } from "./audit-trail.js";
import { ownForgottenWrite } from "./person-standing.js";
import { writeError, type ConfirmField } from "./write-answers.js";

/** The account a call names, as it resolved: its id, and its network (which compares addresses). Null for a write on a transaction. */
export interface CalledAccount {
  id: number;
  network: Network | null;
}

/** What a reference's dry run asked for: its kept request and the account it was planned on (null: not known). */
interface DryRunAsked {
  request: unknown;
  accountId: number | null;
  form: KeptForm;
}

/**
 * What the reference's dry run kept: from its intent while the store has it open, else from the write it went on to
 * (its trace keeps the request once the intent is used, and after the store forgot it), or null when there is nothing to
 * compare with (superseded, stopped before reserving, still under way, or not this person's write).
 */
async function dryRunAsked(store: GuardStore, reference: string, intent: TokenBinding & { nonce: string }): Promise<DryRunAsked | null> {
  const standing = await store.lookUpIntent(intent.nonce);
  if (standing.outcome === "open") {
    const sealed = SealedIntent.parse(JSON.parse(standing.sealed));
    return sealed.request === undefined ? null : { request: sealed.request, accountId: sealed.account_id, form: "sealed" };
  }
  let wrote = null;
  if (standing.outcome === "reused" && standing.reference !== null && standing.reference !== STOPPED_BEFORE_RESERVING)
    wrote = await intentWrite(store, standing.reference);
  else if (standing.outcome === "unknown") wrote = await ownForgottenWrite(store, reference, intent);
  if (wrote?.kept_request === undefined) return null;
  // The account the write was reserved on: what identifies it among the workspace's transactions names it.
  return { request: wrote.kept_request, accountId: wrote.recognition?.account_id ?? null, form: "audited" };
}

/**
 * Why a call with a dry run's reference (person mode) or token (token mode's page round trip: `field`) cannot stand for that
 * dry run, or null: its arguments ask for another write, while it confirms only the one the person is shown (a client that
 * cannot ask them would otherwise be told "waiting", then "submitted", of a write the model did not ask for). Held to the
 * dry run whether it still waits, was confirmed or expired; a call naming the same write otherwise (the amount in another
 * unit, the account by id, an Ethereum address in other letter case) passes.
 */
export async function otherArgumentsProblem(
  store: GuardStore,
  reference: string,
  intent: TokenBinding & { nonce: string },
  request: WriteRequest,
  account: CalledAccount | null,
  field: ConfirmField = "reference",
): Promise<string | null> {
  const asked = await dryRunAsked(store, reference, intent);
  if (asked === null) return null;
  const differs = keptRequestDifferences(asked.request, request, account?.network ?? null, asked.form);
  // A kept request that cannot be read (an audit record too large kept only its digest) is never taken for this call's.
  if (differs === null)
    return (
      `the dry run this ${field} names can no longer be compared with these arguments, so this call cannot stand for it. ` +
      "Nothing was sent: list_activity tells what became of that write; run a new dry run for another"
    );
  if (account !== null && asked.accountId !== null && account.id !== asked.accountId) differs.unshift("account");
  if (differs.length === 0) return null;
  return (
    `${differs.join(", ")}: differs from the dry run this ${field} names, which is the only write it confirms ` +
    "(as the person is shown it). Nothing was sent: call again with the dry run's own arguments, or run a new dry run"
  );
}

/** The same as an audited refusal (`digest_mismatch`, nothing sent), or null when the call asks for the dry run's own write. */
export async function otherArgumentsRefusal(
  call: ToolCall,
  reference: string,
  intent: TokenBinding & { nonce: string },
  called: { request: WriteRequest; account: CalledAccount | null },
  field: ConfirmField = "reference",
): Promise<CallToolResult | null> {
  const other = await otherArgumentsProblem(call.ctx.road.store, reference, intent, called.request, called.account, field);
  if (other === null) return null;
  await recordOperation(call, { event: "refused", tool: intent.tool, request: null, error: other, details: { reason: "digest_mismatch" } });
  return writeError("refused", other, { reason: "digest_mismatch", reference });
}
