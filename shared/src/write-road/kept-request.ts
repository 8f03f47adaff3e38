import { boundedForAudit } from "../audit/audit-bounds.js";
import { canonicalJson } from "../audit/canonical-json.js";
import { WriteRequest, writeSpec, type WriteKind } from "../kinds/registry.js";
import type { Network } from "../schemas/account.js";
import { comparedValue } from "./request-digest.js";

/** A request as a sealed intent keeps it: JSON, its amounts (its spec's amountFields) as digit strings. */
export function keepRequest(request: WriteRequest): Record<string, unknown> {
  const fields = writeSpec(request.kind).amountFields;
  return Object.fromEntries(Object.entries(request).map(([key, value]) => [key, fields.includes(key) && typeof value === "bigint" ? value.toString() : value]));
}

/** The request keepRequest kept, its amounts in base units again, checked by the request schema. */
export function keptRequest(kept: unknown): WriteRequest {
  const record = kept as Record<string, unknown>;
  const fields = writeSpec(record.kind as WriteKind).amountFields;
  return WriteRequest.parse(
    Object.fromEntries(
      Object.entries(record).map(([key, value]) => [
        key,
        fields.includes(key) && typeof value === "string" && /^[0-9]{1,80}$/.test(value) ? BigInt(value) : value,
      ]),
    ),
  );
}

/** Where a kept request was read: a sealed intent (as keepRequest kept it), or a write's trace (as its audit record bounds it). */
export type KeptForm = "sealed" | "audited";

/** Fields a confirming call does not give as the dry run had them: the reference (the dry run's own), the account (compared by id). */
const NOT_COMPARED: ReadonlySet<string> = new Set(["correlation_id", "account"]);

/**
 * The fields in which a call's request differs from the one a person-mode intent kept, each compared as kept
 * (amounts in base units: "0.33" SOL and "330000000" lamport are one amount) and as the intent's fingerprint compares
 * it on the account's network (an Ethereum recipient in any letter case is one recipient), except the reference and the
 * account, which the request names as typed ("#1", "sol-treasury") and the caller compares by the id it resolved. Empty
 * when the call asks for the same write; null when the kept request cannot be read (its caller must not take that for the same write).
 */
export function keptRequestDifferences(kept: unknown, request: WriteRequest, network: Network | null, form: KeptForm = "sealed"): string[] | null {
  let before: Record<string, unknown>;
  let after: Record<string, unknown>;
  try {
    if (form === "sealed") {
      before = keepRequest(keptRequest(kept));
      after = keepRequest(request);
    } else {
      // An audit record keeps each long string as its digest and every string sanitised: the call's request is compared so bounded too.
      if (typeof kept !== "object" || kept === null || Array.isArray(kept) || (kept as { kind?: unknown }).kind !== request.kind) return null;
      before = kept as Record<string, unknown>;
      after = boundedForAudit(keepRequest(request)) as Record<string, unknown>;
    }
  } catch {
    return null;
  }
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((field) => !NOT_COMPARED.has(field));
  const compared = (value: unknown, field: string) => canonicalJson(comparedValue(network, field, value ?? null));
  return fields.filter((field) => compared(before[field], field) !== compared(after[field], field));
}
