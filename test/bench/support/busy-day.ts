import { createHash } from "node:crypto";
import type { AuditSealKey, ReservationRequest } from "@custody/shared";
import { openPostgresGuardStore } from "@custody/shared/postgres-store";

/** Operators writing on the busy day: a team's, each with its own writes in the day's fold. */
const OPERATORS = 100;

/**
 * Appends `records` real records to a store's chain, as a busy team's day would hold them: writes
 * of 100 operators (a `reserved` and a `submitted` record each, with the traces and committed
 * amounts their appends keep), their times spread evenly over the last 23 hours, through the
 * store's own appends. Returns the milliseconds it took.
 */
export async function appendBusyDay(url: string, sealKey: AuditSealKey, records: number): Promise<number> {
  const started = Date.now();
  const first = started - 23 * 3_600_000;
  const step = Math.floor((23 * 3_600_000 - 60_000) / records);
  let index = -1;
  // The open checks the day before now; each append is dated at its place in the day.
  const store = await openPostgresGuardStore(url, { sealKey, now: () => new Date(index < 0 ? Date.now() : first + index * step) });
  try {
    for (index = 0; index < records; index += 1) {
      const write = Math.floor(index / 2);
      const operator = `op-${write % OPERATORS}`;
      const details = { currency: "polkadot", reference: `cw-day-${write}`, policy_amount: String(1 + (write % 1000)) };
      await store.append(
        index % 2 === 0
          ? {
              event: "reserved",
              surface: "mcp",
              operator,
              tool: "polkadot_bond_extra",
              request_digest: null,
              details: { ...details, fingerprint: `${write}`.padStart(64, "0") },
            }
          : { event: "submitted", surface: "mcp", operator, tool: "polkadot_bond_extra", request_digest: null, transaction_id: 1 + write, details },
      );
    }
  } finally {
    await store.close();
  }
  return Date.now() - started;
}

/** A reservation of a write of `operator` counting the last day (its duplicates, its operator's and the team's limits), as the road's are. */
export function dayReservation(operator: string, reference: string): ReservationRequest {
  const since = new Date(Date.now() - 24 * 3_600_000);
  const details = { currency: "polkadot", reference, policy_amount: "1", fingerprint: createHash("sha256").update(reference).digest("hex") };
  return {
    record: { event: "reserved", surface: "mcp", operator, tool: "polkadot_bond_extra", request_digest: null, details },
    operator,
    fingerprint: details.fingerprint,
    reference,
    duplicatesSince: since,
    repeatOf: null,
    limits: [{ scope: { kind: "operator", operator }, currency: "polkadot", since, check: () => null }],
  };
}
