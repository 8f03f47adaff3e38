/** One figure of the report, beside the baseline measured in the same run. */
export interface Figure {
  measure: string;
  value: number | null;
  unit: string;
  baseline: string;
  baselineValue: number | null;
  /** value / baselineValue. */
  ratio: number | null;
  /** The issue's target, when it sets one, e.g. "ratio <= 1.0". */
  target?: string;
  meetsTarget?: boolean | null;
  note?: string;
  /** The same figure as docs/performance.md gave it before (quoted, not measured again; see Section.quotedColumn), when there is one. */
  quoted?: string;
}

/** The heading of the quoted v1 column: the last full run of docs/performance.md on the SDK's v1. */
export const V1_COLUMN = "v1 (docs as of 2026-11-23)";

export interface Section {
  title: string;
  figures: Figure[];
  /** Measurement details kept in the JSON only. */
  details?: unknown;
  /** Set when the section could not be measured. */
  error?: string;
  /** The heading of the column of quoted figures (Figure.quoted): by default the SDK's v1 figures. */
  quotedColumn?: string;
  /** A table of its own, shown under the figures (e.g. bytes per tool). */
  table?: { headers: string[]; rows: (string | number)[][] };
}

export interface BenchReport {
  startedAt: string;
  durationSeconds: number;
  machine: { node: string; platform: string; cpus: number; cpuModel: string; totalMemoryMb: number };
  sections: Section[];
}

function cell(value: number | null, unit: string): string {
  if (value === null || !Number.isFinite(value)) return "n/a";
  return `${value.toLocaleString("en-US")} ${unit}`.trim();
}

function verdict(figure: Figure): string {
  if (figure.target === undefined) return "";
  if (figure.meetsTarget === null || figure.meetsTarget === undefined) return `${figure.target}: n/a`;
  return `${figure.target}: ${figure.meetsTarget ? "met" : "**missed**"}`;
}

/** One section as Markdown: its heading, an optional line under it, its table(s). */
export function sectionMarkdown(section: Section, intro?: string): string {
  const lines = [`### ${section.title}`, ""];
  if (intro !== undefined) lines.push(intro, "");
  if (section.error !== undefined) lines.push(`Not measured: ${section.error}`, "");
  const quotesV1 = section.figures.some((figure) => figure.quoted !== undefined);
  if (section.figures.length > 0) {
    lines.push(
      `| Measure | Value | Baseline (same run) | Baseline value | Ratio | Target |${quotesV1 ? ` ${section.quotedColumn ?? V1_COLUMN} |` : ""} Note |`,
      `|---|---:|---|---:|---:|---|${quotesV1 ? "---:|" : ""}---|`,
    );
  }
  for (const figure of section.figures) {
    const ratio = figure.ratio === null ? "n/a" : figure.ratio.toFixed(2);
    const v1 = quotesV1 ? ` ${figure.quoted ?? ""} |` : "";
    lines.push(
      `| ${figure.measure} | ${cell(figure.value, figure.unit)} | ${figure.baseline} | ` +
        `${cell(figure.baselineValue, figure.unit)} | ${ratio} | ${verdict(figure)} |${v1} ${figure.note ?? ""} |`,
    );
  }
  lines.push("");
  if (section.table) {
    lines.push(`| ${section.table.headers.join(" | ")} |`, `|${section.table.headers.map(() => "---").join("|")}|`);
    for (const row of section.table.rows)
      lines.push(`| ${row.map((value) => (typeof value === "number" ? value.toLocaleString("en-US") : value)).join(" | ")} |`);
    lines.push("");
  }
  return lines.join("\n");
}

export function machineLine(report: Pick<BenchReport, "startedAt" | "durationSeconds" | "machine">): string {
  return (
    `Measured ${report.startedAt} in ${report.durationSeconds} s on ` +
    `${report.machine.cpus} × ${report.machine.cpuModel}, ` +
    `${report.machine.totalMemoryMb} MiB, Node ${report.machine.node} ` +
    `(${report.machine.platform}).`
  );
}

/** The report as Markdown: one table per section. */
export function reportMarkdown(report: BenchReport): string {
  return [machineLine(report), "", ...report.sections.map((section) => sectionMarkdown(section))].join("\n");
}

export const RESULTS_START = "<!-- bench:results:start -->";
export const RESULTS_END = "<!-- bench:results:end -->";

/** The document with the text between the result markers replaced; the rest is kept as written. */
export function spliceResults(document: string, results: string): string {
  const start = document.indexOf(RESULTS_START);
  const end = document.indexOf(RESULTS_END);
  const block = `${RESULTS_START}\n${results}\n${RESULTS_END}`;
  if (start === -1 || end === -1 || end < start) return `${document.trimEnd()}\n\n## Latest results\n\n${block}\n`;
  return `${document.slice(0, start)}${block}${document.slice(end + RESULTS_END.length)}`;
}

/**
 * The document with one section of the results replaced: the block between the result markers from
 * its heading (the line starting "### <headingStart>") to the next heading or the end marker. The rest of the results,
 * from an earlier full run, is kept. Without such a block the section goes before the end marker.
 */
export function spliceSection(document: string, headingStart: string, block: string): string {
  const start = document.indexOf(RESULTS_START);
  const end = document.indexOf(RESULTS_END);
  if (start === -1 || end === -1 || end < start) return spliceResults(document, block);
  const heading = document.indexOf(`\n### ${headingStart}`, start);
  if (heading === -1 || heading > end) {
    // A section new to the document goes last, a blank line after the table before it.
    const before = document.slice(0, end);
    return `${before}${before.endsWith("\n\n") || before.endsWith(`${RESULTS_START}\n`) ? "" : "\n"}${block}\n${document.slice(end)}`;
  }
  const next = document.indexOf("\n### ", heading + 1);
  const stop = next === -1 || next > end ? end : next + 1;
  return `${document.slice(0, heading + 1)}${block}\n${stop === end ? "" : "\n"}${document.slice(stop)}`;
}
