import { PolkadotStakingType } from "../../schemas/coin-fields-request.js";
import type { Transaction } from "../../schemas/transaction.js";
import type { WriteDraft } from "../kit/write-spec.js";

const SOLANA_STAKE_TYPES = new Set(["STAKE_CREATE_DELEGATE", "STAKE_DEACTIVATE", "STAKE_WITHDRAW", "STAKE_DELEGATE", "STAKE_SPLIT", "STAKE_SPLIT_DEACTIVATE"]);
const DELEGATING_TYPES = new Set(["STAKE_CREATE_DELEGATE", "STAKE_DELEGATE"]);
const CONTRACT_TYPES = new Set(["EXECUTE_CONTRACT", "DEPLOY_CONTRACT"]);

/** The validator a stake transaction delegates to: coin_fields.tx_parameters.validator_address, else the recipient (the service puts it in both). */
function validatorOf(transaction: Transaction): string | undefined {
  const parameters = (transaction.coin_fields as { tx_parameters?: { validator_address?: unknown } } | null)?.tx_parameters;
  const validator =
    typeof parameters?.validator_address === "string" && parameters.validator_address !== "" ? parameters.validator_address : transaction.recipient;
  return validator === "" ? undefined : validator;
}

/**
 * What the local policy checks on an approval: the operation it releases, held to the rules that
 * operation would meet if this operator created it. Its amount; its address under the list that
 * applies to it (a contract call's contract under allowed_contracts, and under allowed_recipients
 * unless allowed_contracts names it; a delegation's validator under allowed_validators; a send's
 * recipient under allowed_recipients; the stake account of other stake actions and the empty
 * recipient of Polkadot staking are not addresses funds go to); and the
 * toolset of the tools that create it (a contract call: ethereum_staking, the only toolset with
 * contract calls).
 */
export function approvalSubject(transaction: Transaction): WriteDraft["policy"] {
  // The worst case the approval releases: the amount plus every fee the transaction may pay.
  const amount = transaction.amount + transaction.max_fees;
  const recipient = transaction.recipient === "" ? undefined : transaction.recipient;
  if (CONTRACT_TYPES.has(transaction.type)) return { amount, toolset: "ethereum_staking", ...(recipient === undefined ? {} : { contract: recipient }) };
  if (SOLANA_STAKE_TYPES.has(transaction.type)) {
    const validator = DELEGATING_TYPES.has(transaction.type) ? validatorOf(transaction) : undefined;
    return { amount, toolset: "solana_staking", ...(validator === undefined ? {} : { validator }) };
  }
  if (PolkadotStakingType.safeParse(transaction.type).success) return { amount, toolset: "polkadot_staking" };
  return { amount, toolset: "transactions", ...(recipient === undefined ? {} : { recipient }) };
}
