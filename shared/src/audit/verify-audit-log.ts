import { ChainCheck } from "./chain-check.js";
import { forEachLineSync, streamLines, type FileLine } from "./log-lines.js";

export type AuditVerdict =
  | { ok: true; records: number; lastHash: string }
  | { ok: false; records: number; line: number; reason: string };

/** The verdict on a log's lines taken one at a time: its shape, sequence numbers and both hashes of every line. */
class Verification {
  readonly #chain = new ChainCheck();
  #records = 0;
  #broken: AuditVerdict | null = null;

  /** False once the chain is broken: the lines after it need not be read. */
  take(line: string): boolean {
    const reading = this.#chain.next(line);
    if ("reason" in reading) {
      const number = this.#records + 1;
      this.#broken = { ok: false, records: this.#records, line: number, reason: `line ${number}: ${reading.reason}` };
      return false;
    }
    this.#records += 1;
    return true;
  }

  verdict(): AuditVerdict {
    return this.#broken ?? { ok: true, records: this.#records, lastHash: this.#chain.point.hash };
  }
}

class ChainBroken extends Error {}

/** Checks every line of an audit log, read in chunks (memory stays bounded whatever the log's size). */
export function verifyAuditLog(path: string): AuditVerdict {
  const verification = new Verification();
  const take = (line: FileLine) => {
    if (!verification.take(line.text)) throw new ChainBroken();
  };
  try {
    const { remainder } = forEachLineSync(path, 0, take);
    if (remainder.length > 0) take({ text: remainder.toString("utf8"), end: 0 });
  } catch (error) {
    if (!(error instanceof ChainBroken)) throw error;
  }
  return verification.verdict();
}

/** The same check streamed, for `verify-audit` on a log of any size without blocking. */
export async function streamVerifyAuditLog(path: string): Promise<AuditVerdict> {
  const verification = new Verification();
  for await (const line of streamLines(path)) if (!verification.take(line.text)) break;
  return verification.verdict();
}
