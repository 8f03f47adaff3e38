import type { Figure, Section } from "../support/bench-report.js";
import { ratio } from "../support/latency-stats.js";

/** Peak RSS (VmHWM, KiB) of each process the bench ran, read just before it ended. */
export interface PeakMemory {
  floorResponder: number | null;
  oneToolServer: number | null;
  custodyColdStart: number | null;
  custodyDemoSession: number | null;
  custodyScaleSession: number | null;
  bareHttpServer: number | null;
  emulatorDemo: number | null;
  emulatorScale: number | null;
}

const mb = (kb: number | null) => (kb === null ? null : Math.round(kb / 102.4) / 10);

export function memorySection(peak: PeakMemory): Section {
  const row = (measure: string, value: number | null, baseline: string, base: number | null, note?: string): Figure => ({
    measure,
    value: mb(value),
    unit: "MiB",
    baseline,
    baselineValue: mb(base),
    ratio: value === null || base === null ? null : ratio(value, base),
    ...(note ? { note } : {}),
  });
  return {
    title: "Peak memory (VmHWM of each process over its whole life)",
    figures: [
      row("MCP server, cold start (largest of the runs)", peak.custodyColdStart, "one-tool SDK server", peak.oneToolServer),
      row("MCP server, session on the demo workspace (per-call runs)", peak.custodyDemoSession, "one-tool SDK server", peak.oneToolServer),
      row("MCP server, session on the scale workspace", peak.custodyScaleSession, "MCP server on the demo workspace", peak.custodyDemoSession),
      row("one-tool SDK server", peak.oneToolServer, "hand-written floor", peak.floorResponder),
      row("emulator, demo workspace (all the runs above and the HTTP load)", peak.emulatorDemo, "bare node:http server", peak.bareHttpServer),
      row("emulator, scale workspace (seeding and reads)", peak.emulatorScale, "emulator, demo workspace", peak.emulatorDemo),
    ],
    details: peak,
  };
}
