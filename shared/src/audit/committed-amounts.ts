import { existsSync } from "node:fs";
import type { LimitScope } from "../policy/limit-scope.js";
import { AuditRecord } from "./audit-entry.js";
import { commitmentEffect, type CommitmentEffect } from "./commitment-effect.js";
import { forEachLineSync } from "./log-lines.js";

export { NOT_APPLIED_OUTCOME, TEAM_COUNTED_BY } from "./commitment-effect.js";

export interface CommittedQuery {
  /** Whose writes: one operator's, one person's, or everyone's. */
  scope: LimitScope;
  currency: string;
  since: Date;
}

interface Counted {
  amount: bigint;
  /** The subject of the person of the write's latest counting record, or null (a single user). */
  person: string | null;
  /** Whether it counts for the team (see TEAM_COUNTED_BY). */
  team: boolean;
  /** The newest time (ms) of the write's counting records since its last release. */
  latestMs: number;
}

/** One entry of CommittedWrites, as a ledger stores it. */
export interface CommittedEntry {
  operator: string;
  /** The subject of the person whose write it is, or null (a single user). */
  person: string | null;
  /** Whether it counts for the team (see TEAM_COUNTED_BY). */
  team: boolean;
  /** The write's reference, or `#<seq>` for a counting record without one. */
  key: string;
  currency: string;
  amount: bigint;
  latestMs: number;
}

function inScope(operator: string, counted: Counted, scope: LimitScope): boolean {
  return scope.kind === "team" ? counted.team : scope.kind === "operator" ? operator === scope.operator : counted.person === scope.subject;
}

/**
 * The writes that count against the daily limits, folded record by record in log order (each
 * record's commitmentEffect): the state committedSince reads, kept by a ledger between appends or
 * built by one pass over a log.
 *
 * A write is identified by `details.reference` (its correlation id, one per confirmation) and
 * counted once if any of its `reserved` (written under the log's lock before the POST),
 * `submitted` or `ambiguous` (the answer was lost, so it may have happened) records lies in the
 * window; its amount (and the person it counts for) is that of its latest such record. A later record of the same operator and
 * reference with `details.outcome` "not_applied" releases it: a `failed` record (the POST was
 * refused or never sent) or a `resolved` record (the look-up established that it did not happen).
 * Any other outcome (`not_found`, `uncertain`, a failure that does not say not_applied) leaves it
 * counted. A counting record without a reference cannot be paired and always counts.
 */
export class CommittedWrites {
  /** By operator and write, then by currency. */
  readonly #writes = new Map<string, { operator: string; key: string; currencies: Map<string, Counted> }>();

  /** Folds the next record of the log. */
  fold(record: AuditRecord): void {
    const effect = commitmentEffect(record);
    if (effect !== null) this.apply(effect);
  }

  apply(effect: CommitmentEffect): void {
    if (effect.kind === "release") {
      this.#writes.delete(JSON.stringify([effect.operator, effect.key]));
      return;
    }
    const at = Date.parse(effect.at);
    const previous = this.#writes.get(JSON.stringify([effect.operator, effect.key]))?.currencies.get(effect.currency);
    this.set({
      operator: effect.operator,
      person: effect.person,
      team: effect.team,
      key: effect.key,
      currency: effect.currency,
      amount: effect.amount,
      latestMs: Math.max(previous?.latestMs ?? -Infinity, Number.isNaN(at) ? -Infinity : at),
    });
  }

  set(entry: CommittedEntry): void {
    const write = this.#entry(entry.operator, entry.key);
    if (entry.latestMs === -Infinity) write.currencies.delete(entry.currency);
    else write.currencies.set(entry.currency, { amount: entry.amount, person: entry.person, team: entry.team, latestMs: entry.latestMs });
    if (write.currencies.size === 0) this.#writes.delete(JSON.stringify([entry.operator, entry.key]));
  }

  /** What the scope's writes committed in the currency since a moment. */
  total(query: CommittedQuery): bigint {
    const since = query.since.getTime();
    let total = 0n;
    for (const write of this.#writes.values()) {
      const counted = write.currencies.get(query.currency);
      if (counted !== undefined && counted.latestMs >= since && inScope(write.operator, counted, query.scope)) total += counted.amount;
    }
    return total;
  }

  /** Forgets the writes whose every counting record is older than `beforeMs`; true when any was. Totals since `beforeMs` or later are unchanged. */
  prune(beforeMs: number): boolean {
    let pruned = false;
    for (const [id, write] of this.#writes) {
      for (const [currency, counted] of write.currencies) {
        if (counted.latestMs >= beforeMs) continue;
        write.currencies.delete(currency);
        pruned = true;
      }
      if (write.currencies.size === 0) this.#writes.delete(id);
    }
    return pruned;
  }

  *entries(): Generator<CommittedEntry> {
    for (const write of this.#writes.values()) {
      for (const [currency, counted] of write.currencies) yield { operator: write.operator, key: write.key, currency, ...counted };
    }
  }

  #entry(operator: string, key: string) {
    const id = JSON.stringify([operator, key]);
    let write = this.#writes.get(id);
    if (write === undefined) {
      write = { operator, key, currencies: new Map() };
      this.#writes.set(id, write);
    }
    return write;
  }
}

const PRUNE_EVERY_LINES = 10_000;

/**
 * What a scope's writes committed in a currency since a moment, read from the whole audit log in
 * one pass (see CommittedWrites): the definition the ledger's totals are held to, and the answer
 * for a moment older than what the ledger keeps.
 */
export function committedSince(path: string, query: CommittedQuery): bigint {
  if (!existsSync(path)) return 0n;
  const writes = new CommittedWrites();
  let index = 0;
  const take = (line: string) => {
    if (line !== "") {
      const parsed = AuditRecord.safeParse(JSON.parse(line));
      if (parsed.success) writes.fold(parsed.data);
    }
    index += 1;
    if (index % PRUNE_EVERY_LINES === 0) writes.prune(query.since.getTime());
  };
  const { remainder } = forEachLineSync(path, 0, (line) => take(line.text));
  if (remainder.length > 0) take(remainder.toString("utf8"));
  return writes.total(query);
}

/**
 * The details every surface writes on a `reserved`, `submitted` or `ambiguous` record of a write,
 * so that committedSince counts it: the currency, the correlation reference and the committed amount.
 */
export function committedDetails(plan: { currency: { name: string }; correlation_id: string; policy_amount: bigint | undefined }): {
  currency: string;
  reference: string;
  policy_amount?: string;
} {
  return {
    currency: plan.currency.name,
    reference: plan.correlation_id,
    ...(plan.policy_amount === undefined ? {} : { policy_amount: plan.policy_amount.toString() }),
  };
}
