import { createHash } from "node:crypto";
import { canonicalJson } from "../audit/canonical-json.js";
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

/**
 * The intent: what makes two writes the same one, whatever their correlation reference, the fee
 * cap an estimate proposed or the spelling of the account. The request as the person gave it,
 * in base units, with the account resolved to its id (and the transaction for an approval).
 */
export function intentFingerprint(plan: Pick<PlannedWrite, "operator" | "kind" | "account" | "transaction" | "request">): string {
  const { correlation_id: _reference, repeat_of: _repeat, ...request } = plan.request;
  const { account: _named, ...rest } = "account" in request ? request : { ...request, account: null };
  return sha256({ operator: plan.operator, kind: plan.kind, account_id: plan.account.id, transaction_id: plan.transaction?.id ?? null, request: rest });
}
