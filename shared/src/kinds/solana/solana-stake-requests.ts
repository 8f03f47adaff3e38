import { CreateSolanaStakeRequest, DelegateSolanaStakeRequest, SplitSolanaStakeRequest } from "../../schemas/solana-stake.js";
import { SOLANA_ADDRESS, SOLANA_ADDRESS_RULE } from "../../schemas/address-format.js";
import { INPUT_LIMITS } from "../../schemas/input-limits.js";
import { amountIssue, checkedBody, formatIssue, throwIfIssues } from "../kit/builder-validation.js";

/**
 * Body of POST /solana/accounts/{id}/stakes (create and delegate). The amount stays a bigint: it
 * is a JSON integer on the wire, written digit for digit by stringifyJsonExact.
 */
export function buildCreateSolanaStakeRequest(input: { amount: bigint; validator: string }): CreateSolanaStakeRequest {
  const subject = "Solana create stake request (POST /solana/accounts/{account_id}/stakes)";
  throwIfIssues(subject, [
    amountIssue("amount", input.amount, "positive"),
    formatIssue("validator", input.validator, SOLANA_ADDRESS, SOLANA_ADDRESS_RULE, INPUT_LIMITS.address),
  ]);
  return checkedBody(subject, CreateSolanaStakeRequest, { amount: input.amount, validator: input.validator });
}

/** Body of POST .../stakes/{uid}/actions/delegate: the stake's whole total_balance goes to the validator. */
export function buildDelegateSolanaStakeRequest(input: { validator: string }): DelegateSolanaStakeRequest {
  const subject = "Solana delegate request (POST /solana/accounts/{account_id}/stakes/{uid}/actions/delegate)";
  throwIfIssues(subject, [formatIssue("validator", input.validator, SOLANA_ADDRESS, SOLANA_ADDRESS_RULE, INPUT_LIMITS.address)]);
  return checkedBody(subject, DelegateSolanaStakeRequest, { validator: input.validator });
}

/** Body of POST .../actions/split and .../actions/split_deactivate: the amount split off, a JSON integer on the wire. */
export function buildSplitSolanaStakeRequest(input: { amount: bigint }): SplitSolanaStakeRequest {
  const subject = "Solana split request (POST /solana/accounts/{account_id}/stakes/{uid}/actions/split[_deactivate])";
  throwIfIssues(subject, [amountIssue("amount", input.amount, "positive")]);
  return checkedBody(subject, SplitSolanaStakeRequest, { amount: input.amount });
}
