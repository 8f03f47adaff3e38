import type { PersonOnRecord } from "../identity/person.js";
import type { AuditRecord } from "./audit-entry.js";

/** The most people a tally names one by one; the records of any more are counted together. */
const MAX_NAMED_PEOPLE = 1000;

/** What one person's records of a chain say they did: their latest name, and the count of each event. */
export interface PersonTally {
  /** Null: the records of a single user (no one signed in). */
  person: PersonOnRecord | null;
  records: number;
  events: Record<string, number>;
  /**
   * Their `confirmed` records by where they confirmed: `form`, `page`, `vscode` (the extension's
   * "Waiting for you" view), `view` (the MCP App view), or `token` (the token alone).
   */
  confirmed_through: Record<string, number>;
}

/** The surfaces a confirmation is recorded through; anything else on a record is not counted by name. */
const CONFIRMED_THROUGH = new Set(["form", "page", "vscode", "view", "token"]);

/**
 * Who did what in an audit chain, folded record by record in bounded memory: per person (by
 * subject) the count of each event, for verify-audit's summary.
 */
export class PeopleTally {
  readonly #people = new Map<string | null, PersonTally>();
  /** Records of people beyond MAX_NAMED_PEOPLE. */
  #others = 0;

  add(record: AuditRecord): void {
    const person = record.person ?? null;
    const key = person?.subject ?? null;
    let tally = this.#people.get(key);
    if (tally === undefined) {
      if (this.#people.size >= MAX_NAMED_PEOPLE) {
        this.#others += 1;
        return;
      }
      tally = { person, records: 0, events: {}, confirmed_through: {} };
      this.#people.set(key, tally);
    }
    // The newest record's name wins; one naming the subject alone (a look-up resumed by another process) takes nothing away.
    if (person !== null) tally.person = { ...tally.person, ...person };
    tally.records += 1;
    tally.events[record.event] = (tally.events[record.event] ?? 0) + 1;
    if (record.event === "confirmed") {
      // Records written before the field was: taken as what they were then, the form or the token alone (unknown which).
      const through = record.details?.through;
      const surface = typeof through === "string" && CONFIRMED_THROUGH.has(through) ? through : "unrecorded";
      tally.confirmed_through[surface] = (tally.confirmed_through[surface] ?? 0) + 1;
    }
  }

  /** The people, most records first, and the records of those not named one by one. */
  summary(): { people: PersonTally[]; others: number } {
    return { people: [...this.#people.values()].sort((a, b) => b.records - a.records), others: this.#others };
  }
}
