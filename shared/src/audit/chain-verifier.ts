import { AuditRecord, GENESIS_HASH } from "./audit-entry.js";
import { auditHash, type AuditVerdict } from "./audit-log.js";

/**
 * Checks an audit chain one line at a time, holding only the previous hash: a log or a database
 * of any size is verified in bounded memory, in the order its lines are read.
 */
export class AuditChainVerifier {
  #previous = GENESIS_HASH;
  #records = 0;
  #failure: AuditVerdict | null = null;

  /** Checks the next line; false once the chain is broken (the verdict says where). */
  push(line: string): boolean {
    if (this.#failure !== null) return false;
    const index = this.#records;
    const fail = (reason: string): boolean => {
      this.#failure = { ok: false, records: index, line: index + 1, reason: `line ${index + 1}: ${reason}` };
      return false;
    };
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return fail("not JSON");
    }
    const result = AuditRecord.safeParse(parsed);
    if (!result.success) return fail("not an audit record");
    const { hash, ...unsigned } = result.data;
    if (unsigned.seq !== index) return fail(`sequence number ${unsigned.seq}, expected ${index}`);
    if (unsigned.prev_hash !== this.#previous) return fail("prev_hash does not match the previous line's hash");
    if (auditHash(unsigned) !== hash) return fail("hash does not match the line's content");
    this.#previous = hash;
    this.#records += 1;
    return true;
  }

  verdict(): AuditVerdict {
    return this.#failure ?? { ok: true, records: this.#records, lastHash: this.#previous };
  }
}
