import { AuditChainVerifier } from "./chain-verifier.js";
import { forEachLineSync, MAX_AUDIT_LINE_BYTES, streamLines, type FileLine } from "./log-lines.js";

export type { AuditVerdict } from "./chain-verifier.js";

class ChainBroken extends Error {}

/** Checks every line of an audit log, read in chunks (memory stays bounded whatever the log's size). */
export function verifyAuditLog(path: string) {
  const verifier = new AuditChainVerifier();
  const take = (line: FileLine) => {
    if (!verifier.push(line.text)) throw new ChainBroken();
  };
  try {
    const { remainder } = forEachLineSync(path, 0, take);
    if (remainder.length > 0) take({ text: remainder.toString("utf8"), end: 0 });
  } catch (error) {
    if (!(error instanceof ChainBroken)) throw error;
  }
  return verifier.verdict();
}

/** The same check streamed, for `verify-audit` on a log of any size without blocking. */
export async function streamVerifyAuditLog(path: string) {
  const verifier = new AuditChainVerifier();
  for await (const line of streamLines(path)) {
    const pushed =
      line.tooLong === undefined
        ? verifier.push(line.text)
        : verifier.refuse(`${line.tooLong} bytes long, more than any audit record (${MAX_AUDIT_LINE_BYTES}): not an audit record`);
    if (!pushed) break;
  }
  return verifier.verdict();
}
