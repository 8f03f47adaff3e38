import { existsSync } from "node:fs";
import { AuditRecord } from "../audit/audit-entry.js";
import { forEachLineSync } from "../audit/log-lines.js";
import { foldTrace, type WriteTrace } from "../audit/write-traces.js";

/**
 * The traces of every write in the log, read in one pass: the answer for a moment older than the
 * ledger keeps, or a reference it may have forgotten. `keep` says which traces to hold in memory;
 * it may look only at what a trace's `reserved` record sets (reference, operator, fingerprint, time).
 * A line still being written (no "\n" yet) is left out.
 */
export function scanTraces(path: string, keep: (trace: WriteTrace) => boolean): WriteTrace[] {
  const traces = new Map<string, WriteTrace>();
  if (!existsSync(path)) return [];
  forEachLineSync(path, 0, (line) => {
    if (line.text === "") return;
    const parsed = AuditRecord.safeParse(JSON.parse(line.text));
    if (!parsed.success) return;
    foldTrace(traces, parsed.data);
    const reference = parsed.data.details?.reference;
    const trace = typeof reference === "string" ? traces.get(reference) : undefined;
    if (trace !== undefined && !keep(trace)) traces.delete(reference as string);
  });
  return [...traces.values()];
}
