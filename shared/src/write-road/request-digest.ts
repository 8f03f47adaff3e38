import { createHash } from "node:crypto";
import { canonicalJson } from "../audit/canonical-json.js";
import { accountNetwork, type Network } from "../schemas/account.js";
import type { PlannedWrite } from "./planned-write.js";

function sha256(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}

/**
 * The digest of what the person was shown and confirms: who sends, the account (by id: a name
 * can move to another account), the transaction approved, the exact call, and an acknowledged
 * repeat. Any change of operator, account, amount, recipient, fees or body changes it.
 */
export function requestDigest(plan: Pick<PlannedWrite, "operator" | "kind" | "call" | "account" | "transaction" | "request">): string {
  return sha256(digested(plan));
}

function digested(plan: Pick<PlannedWrite, "operator" | "kind" | "call" | "account" | "transaction" | "request">) {
  return {
    operator: plan.operator,
    kind: plan.kind,
    account_id: plan.account.id,
    transaction_id: plan.transaction?.id ?? null,
    method: plan.call.method,
    path: plan.call.path,
    body: plan.call.body ?? null,
    repeat_of: plan.request.repeat_of ?? null,
  };
}

/**
 * What the digest covers, field by field (each body field apart: "amount", "recipient"), each as the
 * digest of its canonical JSON: kept with a prepared intent, so a confirmation that differs can say
 * in which field without the intent holding the request itself.
 */
export function digestFields(plan: Pick<PlannedWrite, "operator" | "kind" | "call" | "account" | "transaction" | "request">): Record<string, string> {
  const { body, ...rest } = digested(plan);
  const fields: Record<string, unknown> = { ...rest };
  if (body !== null && typeof body === "object" && !Array.isArray(body)) for (const [key, value] of Object.entries(body)) fields[key] = value;
  else fields.body = body;
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, sha256(value ?? null).slice(0, 16)]));
}

/** The fields whose digests differ between two digestFields, or that only one has. */
export function differingFields(before: Record<string, string>, after: Record<string, string>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => before[key] !== after[key]);
}

/** The request fields that say what moves where: the intent, whatever the fee cap, speed or note. */
const MOVEMENT_FIELDS = ["amount", "recipient", "validator", "contract", "contract_data", "stake_uid", "payee"] as const;

/** An address or call data as its network compares it: Ethereum hex in any letter case is one value. */
function normalised(network: Network | null, value: unknown): unknown {
  if (typeof value !== "string") return value;
  const text = value.trim();
  return network === "Ethereum" && /^0x[0-9a-fA-F]*$/.test(text) ? text.toLowerCase() : text;
}

/**
 * A request field's value as two writes are compared by it: a field of what moves where as its network compares it,
 * any other as it is. The intent's fingerprint and person mode's check of a call against its dry run share it.
 */
export function comparedValue(network: Network | null, field: string, value: unknown): unknown {
  return (MOVEMENT_FIELDS as readonly string[]).includes(field) ? normalised(network, value) : value;
}

/**
 * The intent: what makes two writes the same one. Who sends, the kind, the account (by id) or the
 * transaction approved, and what moves where (amount, recipient, validator, contract and its call
 * data, stake, payee), each as its network compares it. Not the reference, the fee cap (proposed or
 * given), the speed or the note: a send written out a little differently is still the same send.
 */
export function intentFingerprint(plan: Pick<PlannedWrite, "operator" | "kind" | "account" | "transaction" | "request">): string {
  const network = accountNetwork(plan.account);
  const request: Record<string, unknown> = plan.request;
  const movement = Object.fromEntries(
    MOVEMENT_FIELDS.filter((field) => request[field] !== undefined).map((field) => [field, comparedValue(network, field, request[field])]),
  );
  return sha256({ operator: plan.operator, kind: plan.kind, account_id: plan.account.id, transaction_id: plan.transaction?.id ?? null, movement });
}

/**
 * What a newer dry run supersedes by in the guard's store: the intent and the person who ran it
 * (their subject, or null for a single user). Another person's identical dry run is theirs alone.
 */
export function supersedeKey(fingerprint: string, person: string | null): string {
  return sha256({ fingerprint, person });
}
