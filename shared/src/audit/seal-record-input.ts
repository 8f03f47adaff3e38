import type { AuditInput } from "./audit-entry.js";

/** Where a store's chain stood: its last record, and for a file the log's length through it. */
export interface ChainExtent {
  seq: number;
  bytes?: number;
}

/**
 * The `sealed` record every store writes, file or database: the first seal of a chain written
 * before seals, or a person's reseal (with what the seal it replaces said, unchecked).
 */
export function sealedRecordInput(
  reason: "first_seal" | "resealed",
  keyId: string,
  holds: ChainExtent | null,
  previous?: (ChainExtent & { key_id: string }) | null,
): AuditInput {
  return {
    event: "sealed",
    surface: "audit-store",
    operator: "",
    tool: reason === "resealed" ? "reseal_audit" : "first_seal",
    request_digest: null,
    details: { reason, key_id: keyId, log: holds, ...(reason === "resealed" ? { previous_seal: previous ?? null } : {}) },
  };
}
