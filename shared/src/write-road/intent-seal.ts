import { writeSpec, type WriteRequest } from "../kinds/registry.js";
import { formatAmount } from "../units/format-units.js";
import { keepRequest } from "./kept-request.js";
import type { PlannedWrite } from "./planned-write.js";
import { digestFields } from "./request-digest.js";
import type { SealedIntent } from "./road-types.js";
import { oneLineUntrusted } from "../untrusted/untrusted-text.js";
import { renderText } from "../l10n/translate.js";
import { whatMovesText } from "./what-moves.js";

/** What sealing a passing dry run adds to its plan. */
export interface SealOf {
  nonce: string;
  fingerprint: string;
  digest: string;
  expires_at: number;
  /** The subject of the person who ran it, or null (a single user). */
  person: string | null;
  /** The base URL of the custody service it was planned against. */
  service: string;
  /** The identical transactions of others the dry run named. */
  similar: number[];
  /** Whether the request itself is kept (a derived nonce: a surface without the arguments confirms it). */
  keepRequest: boolean;
}

/** The intent a passing dry run leaves for its confirmation to rebuild exactly. */
export function sealIntent(plan: PlannedWrite, seal: SealOf): SealedIntent {
  const moves = whatMovesText(plan);
  return {
    nonce: seal.nonce,
    fingerprint: seal.fingerprint,
    digest: seal.digest,
    expires_at: seal.expires_at,
    correlation_id: plan.correlation_id,
    max_fees: plan.proposed_max_fees === null ? null : plan.proposed_max_fees.toString(),
    account_id: plan.account.id,
    transaction_id: plan.transaction?.id ?? null,
    tool: plan.identity.tool,
    person: seal.person,
    service: seal.service,
    fields: digestFields(plan),
    fee: "estimated" in plan.fee ? plan.fee.estimated.base_units : null,
    balances: plan.balances.map((balance) => ({ name: balance.name, before: balance.before.base_units, after: balance.after.base_units })),
    similar: seal.similar,
    moves: oneLineUntrusted(renderText(moves)),
    moves_text: moves,
    ...(seal.keepRequest ? { request: keepRequest(plan.request) } : {}),
  };
}

/** The request a confirmation plans: the dry run's reference, and the fee cap it proposed when the person named none (a spec that proposesMaxFees). */
export function sealRequest(request: WriteRequest, sealed: SealedIntent): WriteRequest {
  const withReference = { ...request, correlation_id: sealed.correlation_id };
  const named = "max_fees" in withReference && withReference.max_fees !== undefined;
  if (sealed.max_fees === null || named || writeSpec(request.kind).proposesMaxFees !== true) return withReference;
  // A spec proposes max_fees only for a request with an optional max_fees.
  return { ...withReference, max_fees: BigInt(sealed.max_fees) } as WriteRequest;
}

/**
 * The plan as the person is asked about it: checked again on fresh data, but with the figures the
 * dry run showed (its fee and balances, and the fee cap it proposed), so the question and the dry
 * run never differ by a fresh estimate.
 */
export function asShownInDryRun(plan: PlannedWrite, sealed: SealedIntent): PlannedWrite {
  const amount = (units: string) => formatAmount(BigInt(units), plan.currency);
  return {
    ...plan,
    ...(sealed.max_fees === null ? {} : { proposed_max_fees: BigInt(sealed.max_fees) }),
    ...(sealed.fee == null ? {} : { fee: { estimated: amount(sealed.fee) } }),
    ...(sealed.balances === undefined
      ? {}
      : { balances: sealed.balances.map((balance) => ({ name: balance.name, before: amount(balance.before), after: amount(balance.after) })) }),
  };
}
