import { buildSendRequest } from "../requests/send-request.js";
import { checkSend } from "../rules/send-rules.js";
import { finding } from "../rules/finding.js";
import { checkAddressFormat } from "../rules/address-format-rule.js";
import { sameAddress } from "../schemas/address-format.js";
import { accountNetwork } from "../schemas/account.js";
import { AccountKindError } from "./account-kind-error.js";
import { settleMaxFees } from "./fee-proposal.js";
import { inFlightFinding } from "./in-flight-check.js";
import { accountAfterUnfinished, operationOf } from "./unfinished-transactions.js";
import { describeAmount, governanceFor, loadAccount, type PlanContext } from "./plan-context.js";
import type { WriteDraft } from "./write-draft.js";
import type { WriteRequestOf } from "./write-request.js";
import type { Note } from "../schemas/primitives.js";

/** A plain send: POST /transactions. */
export async function planSend(ctx: PlanContext, request: WriteRequestOf<"send">, note: Note): Promise<WriteDraft> {
  const loaded = await loadAccount(ctx, request.account);
  const currency = loaded.currency;
  const network = accountNetwork(loaded.account);
  if (!network) throw new AccountKindError(loaded.account, "a send", ["Solana", "Polkadot", "Ethereum"]);
  // On Polkadot, a BONDEXTRA in flight will take from the available balance the send draws on.
  const { account, listing } = network === "Polkadot" ? await accountAfterUnfinished(ctx, loaded.account) : { account: loaded.account, listing: null };
  const build = (maxFees: bigint) =>
    buildSendRequest({ network, account_name: account.name, recipient: request.recipient, amount: request.amount, max_fees: maxFees, speed: request.speed, currency, note });
  const { maxFees: fees, proposed, findings: checks } = await settleMaxFees(ctx, request.max_fees, build, currency, request.correlation_id !== undefined);
  checks.push(checkAddressFormat("recipient", network, request.recipient));
  checks.push(...checkSend({ amount: request.amount, maxFees: fees, availableBalance: account.available_balance }));
  if (listing !== null) {
    checks.push(
      inFlightFinding(listing, {
        prefix: "SEND",
        what: "amount + max_fees",
        amount: request.amount + fees,
        balanceName: "available_balance",
        balance: account.available_balance,
        currency,
        // Unfinished sends are already held out of available_balance by the service (docs/spec-decisions.md); staking is not.
        draws: (tx) => (operationOf(tx) === "BONDEXTRA" ? tx.amount + tx.max_fees : undefined),
      }),
    );
  }
  if (sameAddress(network, request.recipient, account.address)) {
    checks.push(finding("warn", "SEND_TO_SELF", "recipient is the account's own address: the send would only pay fees", { recipient: request.recipient }));
  }
  const governance = governanceFor(account, "transaction", ctx.operator);
  checks.push(...governance.findings);
  return {
    account,
    currency,
    call: { method: "POST", path: "/transactions", body: build(fees) },
    checks,
    amounts: { amount: request.amount, max_fees: fees, available_balance: account.available_balance },
    governance: governance.expectation,
    policy: { amount: request.amount + fees, recipient: request.recipient },
    proposed_max_fees: proposed,
    summary: `send ${describeAmount(request.amount, currency)} from ${account.name} (id ${account.id}) to ${request.recipient}, max fees ${describeAmount(fees, currency)}`,
  };
}
