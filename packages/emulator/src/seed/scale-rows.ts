import { createHash } from "node:crypto";
import { eip55Checksummed, type AccountGovernance, type GovernanceRule, type RuleMember, type TransactionStatus } from "@custody/shared";
import { polkadotAddress, solanaAddress } from "../hsm/addresses.js";
import { base58Encode } from "../hsm/base58.js";
import { networkFee, proposedMaxFees } from "../networks/fee-schedule.js";
import { REQUEST_LIFETIME_MS } from "../networks/network-constants.js";
import type { AccountRow, HistoryEntryRow, NetworkName, RequestRow, TransactionRow, UserRow } from "../store/state-types.js";
import type { ScaleAccountPlan, ScaleTransactionPlan } from "./scale-plan.js";

/** The people a scale workspace's rules name: the operator that creates, the humans that approve. */
export interface ScaleCast {
  operator: UserRow;
  humans: UserRow[];
}

const member = (user: UserRow): RuleMember => ({ username: user.username, is_api: user.is_api });

/** The operator creates and its approval suffices; with humans, one of them must approve as well. */
export function scaleGovernance(cast: ScaleCast, needsHumans: boolean): AccountGovernance {
  const operatorStep = { quorum: 1, approvers: [member(cast.operator)] };
  const steps = needsHumans && cast.humans.length > 0 ? [operatorStep, { quorum: 1, approvers: cast.humans.map(member) }] : [operatorStep];
  const rule: GovernanceRule = { creators: [member(cast.operator)], steps };
  return { transaction: rule, staking: null, smart_contract: null };
}

/** A seeded account holding its spare funds plus what its seeded transactions will take. */
export function scaleAccountRow(plan: ScaleAccountPlan, id: number, address: string, createdOnMs: number, governance: AccountGovernance): AccountRow {
  return {
    id,
    name: plan.name,
    network: plan.network,
    currency: plan.currency,
    index: 0,
    address,
    created_on_ms: createdOnMs,
    free: plan.spare,
    in_flight: 0n,
    polkadot:
      plan.network === "Polkadot"
        ? { bonded: plan.spare / 2n, reserved: 0n, unbonding: [], rewards_destination: "Staked", controller_address: address, proxies: [] }
        : null,
    governance,
  };
}

function digest(algorithm: "sha256" | "sha512", text: string): Buffer {
  return createHash(algorithm).update(text).digest();
}

/** An address outside the workspace, well formed for the network. */
export function externalAddress(network: NetworkName, position: number): string {
  const bytes = digest("sha256", `scale-external:${position}`);
  if (network === "Solana") return solanaAddress(bytes);
  if (network === "Polkadot") return polkadotAddress(bytes);
  return eip55Checksummed(bytes.subarray(0, 20).toString("hex"));
}

/**
 * A hash in the network's form for a seeded broadcast. Seeded transactions are not signed by
 * the HSM (hundreds of thousands of signatures would take minutes); their hash is a digest of
 * what identifies them.
 */
function seededHash(network: NetworkName, identity: string): string {
  if (network === "Solana") return base58Encode(digest("sha512", identity));
  return `0x${digest("sha256", identity).toString("hex")}`;
}

export interface ScaleIds {
  transaction: number;
  request: number;
  /** The id of the request's first history entry; the others follow. */
  firstEntry: number;
}

export interface ScaleTransactionRows {
  transaction: TransactionRow;
  request: RequestRow;
}

/** What a seeded transaction takes from its sender: charged at broadcast (amount + fees) or held while pending (amount + max_fees). */
export function scaleCosts(plan: ScaleTransactionPlan, network: NetworkName): { charged: bigint; held: bigint } {
  const fee = networkFee(network, plan.speed, "send");
  if (plan.outcome === "SUBMITTED") return { charged: plan.amount + fee, held: 0n };
  if (plan.outcome === "PENDING_APPROVAL") return { charged: 0n, held: plan.amount + proposedMaxFees(fee) };
  return { charged: 0n, held: 0n };
}

export interface ScaleTransactionInput {
  plan: ScaleTransactionPlan;
  ids: ScaleIds;
  sender: AccountRow;
  recipient: string;
  cast: ScaleCast;
  processingDelayMs: number;
}

/** The transaction and its CREATE_TRANSACTION request as the engine would have left them. */
export function scaleTransactionRows(input: ScaleTransactionInput): ScaleTransactionRows {
  const { plan, ids, sender, cast } = input;
  const rule = sender.governance.transaction;
  const needsHumans = (rule?.steps.length ?? 1) > 1;
  const human = cast.humans[plan.approver % Math.max(1, cast.humans.length)];
  const fee = networkFee(sender.network, plan.speed, "send");
  const maxFees = proposedMaxFees(fee);
  const created = plan.createdOnMs;
  const decided = plan.decidedOnMs ?? created;
  const delay = input.processingDelayMs;
  const entries: HistoryEntryRow[] = [];
  const entry = (status: TransactionStatus, at: number, by: number): void => {
    entries.push({ id: ids.firstEntry + entries.length, created_by: by, created_on_ms: at, status, is_complete: status !== "PENDING_APPROVAL" });
  };
  const approvals = [{ username: cast.operator.username, is_api: true, approved_on_ms: created }];
  let approvedOn: number | null = null;
  if (needsHumans) entry("PENDING_APPROVAL", created, cast.operator.id);
  if (plan.outcome === "SUBMITTED") {
    approvedOn = needsHumans ? decided : created;
    if (needsHumans && human) approvals.push({ username: human.username, is_api: false, approved_on_ms: decided });
    entry("APPROVED", approvedOn, needsHumans && human ? human.id : cast.operator.id);
    entry("SIGNED", approvedOn + delay, cast.operator.id);
    entry("SUBMITTED", approvedOn + 2 * delay, cast.operator.id);
  } else if (plan.outcome === "REJECTED") {
    entry("REJECTED", decided, human?.id ?? 0);
  } else if (plan.outcome === "EXPIRED") {
    entry("EXPIRED", created + REQUEST_LIFETIME_MS, 0);
  }
  const request: RequestRow = {
    id: ids.request,
    type: "CREATE_TRANSACTION",
    created_by: cast.operator.id,
    created_on_ms: created,
    expired_at_ms: created + REQUEST_LIFETIME_MS,
    rule: "transaction",
    steps: rule?.steps ?? [],
    approvals,
    status: plan.outcome,
    transaction_id: ids.transaction,
    user_id: null,
    rejected_by: plan.outcome === "REJECTED" ? (human?.username ?? null) : null,
    entries,
  };
  const submitted = plan.outcome === "SUBMITTED";
  const pending = plan.outcome === "PENDING_APPROVAL";
  const transaction: TransactionRow = {
    id: ids.transaction,
    account_id: sender.id,
    request_id: ids.request,
    type: "SEND",
    status: plan.outcome,
    amount: plan.amount,
    max_fees: maxFees,
    fee_due: fee,
    fees: submitted ? fee : null,
    reserved: pending ? plan.amount + maxFees : 0n,
    recipient: input.recipient,
    speed: plan.speed,
    notes: [
      { title: `${plan.title} #${plan.position + 1}`, content: `Invoice INV-${(100_000 + plan.position).toString(36).toUpperCase()}, ref ${plan.reference}` },
    ],
    coin_fields: sender.network === "Solana" ? { type: "SEND" } : null,
    created_by: cast.operator.id,
    created_on_ms: created,
    approved_on_ms: approvedOn,
    signed_on_ms: submitted && approvedOn !== null ? approvedOn + delay : null,
    broadcast_on_ms: submitted && approvedOn !== null ? approvedOn + 2 * delay : null,
    tx_hash: submitted ? seededHash(sender.network, `${sender.address}:${ids.transaction}:${plan.amount}:${created}`) : null,
    failure_reason: plan.outcome === "EXPIRED" ? "no quorum of approvals within 7 days of creation" : null,
    effect: { kind: "send" },
  };
  return { transaction, request };
}
