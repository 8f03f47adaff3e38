import { ChainCheck } from "./chain-check.js";
import { PeopleTally, type PersonTally } from "./people-tally.js";

export type AuditVerdict =
  /** `lastSealed`: the sequence number of the chain's last `sealed` record (the chain was sealed then), or null. */
  | { ok: true; records: number; lastHash: string; people: PersonTally[]; otherPeopleRecords: number; lastSealed: number | null }
  | { ok: false; records: number; line: number; reason: string };

/**
 * Checks an audit chain one line at a time (ChainCheck, the one definition of a valid next line),
 * holding only where the chain stands and who did what: a log or a database of any size is
 * verified in bounded memory, in the order its lines are read.
 */
export class AuditChainVerifier {
  readonly #check = new ChainCheck();
  readonly #people = new PeopleTally();
  #records = 0;
  #lastSealed: number | null = null;
  #failure: AuditVerdict | null = null;

  /** Checks the next line; false once the chain is broken (the verdict says where). */
  push(line: string): boolean {
    if (this.#failure !== null) return false;
    const reading = this.#check.next(line);
    if ("reason" in reading) return this.refuse(reading.reason);
    this.#people.add(reading.record);
    if (reading.record.event === "sealed") this.#lastSealed = reading.record.seq;
    this.#records += 1;
    return true;
  }

  /** Breaks the chain at the next line, for a reason found without reading it as a record (it is too long to keep); returns false. */
  refuse(reason: string): false {
    if (this.#failure !== null) return false;
    const index = this.#records;
    this.#failure = { ok: false, records: index, line: index + 1, reason: `line ${index + 1}: ${reason}` };
    return false;
  }

  verdict(): AuditVerdict {
    if (this.#failure !== null) return this.#failure;
    const { people, others } = this.#people.summary();
    return { ok: true, records: this.#records, lastHash: this.#check.point.hash, people, otherPeopleRecords: others, lastSealed: this.#lastSealed };
  }
}
