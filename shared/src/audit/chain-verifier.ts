import { ChainCheck } from "./chain-check.js";
import type { AuditVerdict } from "./verify-audit-log.js";

/**
 * Checks an audit chain one line at a time (ChainCheck, the one definition of a valid next line),
 * holding only where the chain stands: a log or a database of any size is verified in bounded
 * memory, in the order its lines are read.
 */
export class AuditChainVerifier {
  readonly #check = new ChainCheck();
  #records = 0;
  #failure: AuditVerdict | null = null;

  /** Checks the next line; false once the chain is broken (the verdict says where). */
  push(line: string): boolean {
    if (this.#failure !== null) return false;
    const reading = this.#check.next(line);
    if ("reason" in reading) {
      const index = this.#records;
      this.#failure = { ok: false, records: index, line: index + 1, reason: `line ${index + 1}: ${reading.reason}` };
      return false;
    }
    this.#records += 1;
    return true;
  }

  verdict(): AuditVerdict {
    return this.#failure ?? { ok: true, records: this.#records, lastHash: this.#check.point.hash };
  }
}
