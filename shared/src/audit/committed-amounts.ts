import { existsSync, readFileSync } from "node:fs";
import { AuditRecord } from "./audit-entry.js";

export interface CommittedQuery {
  operator: string;
  currency: string;
  since: Date;
}

/**
 * What an operator's submitted writes committed in a currency since a moment, from the audit log:
 * the base for the local policy's daily limits. Submitted records carry
 * `details.currency` and `details.policy_amount` (base units as a decimal string).
 */
export function committedSince(path: string, query: CommittedQuery): bigint {
  if (!existsSync(path)) return 0n;
  let total = 0n;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line === "") continue;
    const parsed = AuditRecord.safeParse(JSON.parse(line));
    if (!parsed.success) continue;
    const record = parsed.data;
    if (record.event !== "submitted" || record.operator !== query.operator) continue;
    if (record.details?.currency !== query.currency || new Date(record.at) < query.since) continue;
    const amount = record.details.policy_amount;
    if (typeof amount === "string" && /^[0-9]+$/.test(amount)) total += BigInt(amount);
  }
  return total;
}
