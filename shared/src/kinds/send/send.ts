import { z } from "zod";
import { buildSendRequest } from "./send-request.js";
import { checkSend } from "./send-rules.js";
import { checkAmountScale } from "../kit/amount-scale-rule.js";
import { finding } from "../../schemas/finding.js";
import { checkAddressFormat } from "../kit/address-format-rule.js";
import { sameAddress } from "../../schemas/address-format.js";
import { accountNetwork } from "../../schemas/account.js";
import { Speed } from "../../schemas/transaction-request.js";
import { AccountKindError } from "../kit/account-kind-error.js";
import { noteWithReference } from "../kit/correlation-reference.js";
import { cappedTransaction, transactionDraft } from "../kit/transaction-draft.js";
import { inFlightDraws, inFlightFinding } from "../kit/in-flight-check.js";
import { accountAfterUnfinished } from "../../holdings/unfinished-transactions.js";
import { governanceFor, loadAccount } from "../kit/plan-context.js";
import { describeAmount } from "../../units/describe-amount.js";
import { WriteNote } from "../kit/write-note.js";
import { buildBody, buildFindings } from "../kit/built-body.js";
import { polkadotDraws } from "../polkadot/polkadot-balance-draws.js";
import { WriteAddress, BaseAmount, ON_ACCOUNT } from "../kit/request-fields.js";
import { defineWrite } from "../kit/write-spec.js";
import { balanceChange } from "../kit/balance-change.js";
import { WRITE_IDENTITIES } from "../registry-identities.js";
import { localText } from "../../l10n/translate.js";

export const SendRequest = z.object({
  kind: z.literal("send"),
  ...ON_ACCOUNT,
  amount: BaseAmount,
  max_fees: BaseAmount.optional(),
  recipient: WriteAddress,
  speed: Speed.default("NORMAL"),
  note: WriteNote.optional(),
});

/** A plain send: POST /transactions. */
export const sendWrite = defineWrite({
  kind: "send",
  identity: WRITE_IDENTITIES.send,
  schema: SendRequest,
  target: "account",
  amountFields: ["amount", "max_fees"],
  proposesMaxFees: true,
  async plan(ctx, request, reference) {
    const loaded = await loadAccount(ctx, request.account);
    const currency = loaded.currency;
    const network = accountNetwork(loaded.account);
    if (!network) throw new AccountKindError(loaded.account, "a send", ["Solana", "Polkadot", "Ethereum"]);
    // On Polkadot, staking operations in flight draw on the available balance the send draws on.
    const { account, listing } = network === "Polkadot" ? await accountAfterUnfinished(ctx, loaded.account) : { account: loaded.account, listing: null };
    const note = noteWithReference(request.note, reference, "send");
    const build = (maxFees: bigint) =>
      buildBody(() =>
        buildSendRequest({
          network,
          account_name: account.name,
          recipient: request.recipient,
          amount: request.amount,
          max_fees: maxFees,
          speed: request.speed,
          currency,
          note,
        }),
      );
    const capped = await cappedTransaction(ctx, request, currency, build);
    const { built, maxFees: fees, fee } = capped;
    const checks = capped.findings;
    checks.push(...buildFindings(built), checkAddressFormat("recipient", network, request.recipient));
    checks.push(...checkSend({ amount: request.amount, maxFees: fees, availableBalance: account.available_balance }));
    checks.push(...checkAmountScale({ amount: request.amount, balance: account.balance, fee: "estimated" in fee ? fee.estimated : null, currency }));
    if (listing !== null) {
      checks.push(
        inFlightFinding(listing, {
          prefix: "SEND",
          what: "amount + max_fees",
          amount: request.amount + fees,
          balanceName: "available_balance",
          balance: account.available_balance,
          currency,
          draws: (tx) => polkadotDraws("available", tx),
        }),
      );
    }
    if (sameAddress(network, request.recipient, account.address)) {
      checks.push(
        finding("warn", "SEND_TO_SELF", localText("recipient is the account's own address: the send would only pay fees"), { recipient: request.recipient }),
      );
    }
    const governance = governanceFor(account, "transaction", ctx.operator);
    checks.push(...governance.findings);
    return {
      account,
      currency,
      checks,
      amounts: capped.amounts,
      destinations: [{ role: "recipient", value: request.recipient }],
      // The service holds amount + max_fees from the available balance until broadcast; Polkadot staking in flight draws on it too.
      balances: [
        balanceChange(
          "available_balance",
          account.available_balance,
          -(request.amount + fees) - (listing === null ? 0n : inFlightDraws(listing, (tx) => polkadotDraws("available", tx))),
        ),
      ],
      fee,
      governance: governance.expectation,
      policy: { amount: request.amount + fees, recipient: request.recipient },
      proposed_max_fees: capped.proposed,
      summary: localText(
        "send {0} from {1} (id {2}) to {3}, {4}",
        describeAmount(request.amount, currency),
        account.name,
        account.id,
        request.recipient,
        capped.capText,
      ),
      ...transactionDraft(built, {
        operations: ["SEND", "EXECUTE_CONTRACT"],
        amount: request.amount.toString(),
        recipient: { network, address: request.recipient },
      }),
    };
  },
});
