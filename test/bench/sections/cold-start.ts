import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Figure, Section } from "../support/bench-report.js";
import { median, ratio, roundMs } from "../support/latency-stats.js";
import { zodEnglishOnly } from "../../../mcp-server/bundle-options.mjs";
import { bundleEntry, MINIMAL_RESPONDER, ONE_TOOL_SERVER_ENTRY } from "../support/program-bundles.js";
import { coldStart, type ColdStartSample, type ProgramCommand, type Revision, type RpcAnswer } from "../support/stdio-rpc-session.js";

/** Issue 19: a start at most 0.8 of the one-tool v2 server's, and at most 80 MiB at its peak. */
export const COLD_START_RATIO_TARGET = 0.8;
export const COLD_START_PEAK_MIB_TARGET = 80;

export interface ColdStartInput {
  /** The MCP server as shipped (mcp-server/build.mjs). */
  custodyBundle: string;
  /** Environment of the custody server: an external base URL, an operator, a fresh audit log. */
  custodyEnv: Record<string, string>;
  workDir: string;
  runs: number;
  /** A Node 22.1+ binary (CUSTODY_BENCH_NODE22): the starts under it, with and without the compile cache, are measured too. */
  node22: string | null;
}

export interface ColdStartOutput {
  section: Section;
  /** The custody server's tools/list answer, for the size section. */
  custodyToolsList: RpcAnswer;
  /** The same over 2026-07-28. */
  custodyToolsList2026: RpcAnswer;
  oneToolToolsList: RpcAnswer;
  peakRssKb: Record<string, number | null>;
}

interface Variant {
  key: string;
  label: string;
  command: ProgramCommand;
  revision: Revision;
  /** Also time a prompts/list after tools/list (the whole server loaded), and read the peak memory after it. */
  loaded?: boolean;
  /** Before each start, untimed. */
  prepare?: () => void;
}

/** docs/performance.md's figures on the SDK's v1 (the run of 2026-11-23), quoted beside the v2 ones. */
const V1 = {
  custody: "136 ms",
  custodyFastest: "104.1 ms",
  oneTool: "155.5 ms",
  ratio: "0.87",
  initialize: "131 ms",
  listOnly: "5 ms",
  peak: "56.6 MiB",
  oneToolPeak: "68.2 MiB",
};

/** Under Node 22: the custody server with its compile cache against the one-tool server, and against itself without the cache. */
function node22Rows(ms: (key: string) => number): Figure[] {
  const r = ratio(ms("custody_node22"), ms("one_tool_node22"));
  return [
    {
      measure: "custody server under Node 22, compile cache on: spawn to tools/list answered, 2025-11-25 (median)",
      value: ms("custody_node22"),
      unit: "ms",
      baseline: "one-tool SDK v2 server under Node 22",
      baselineValue: ms("one_tool_node22"),
      ratio: r,
      target: `ratio <= ${COLD_START_RATIO_TARGET}`,
      meetsTarget: r === null ? null : r <= COLD_START_RATIO_TARGET,
      note: "the cache in the server's home (~/.cache/custody-mcp/compile-cache), filled by an untimed first start",
    },
    {
      measure: "custody server under Node 22, compile cache on (median)",
      value: ms("custody_node22"),
      unit: "ms",
      baseline: "the same with NODE_DISABLE_COMPILE_CACHE=1",
      baselineValue: ms("custody_node22_uncached"),
      ratio: ratio(ms("custody_node22"), ms("custody_node22_uncached")),
    },
  ];
}

/**
 * Cold start: spawn, initialize, tools/list answered, median of `runs` (the variants interleaved
 * so that drift on a shared machine hits them alike).
 */
export async function measureColdStart(input: ColdStartInput): Promise<ColdStartOutput> {
  const baseEnv = { PATH: process.env.PATH ?? "" };
  const oneTool = await bundleEntry(ONE_TOOL_SERVER_ENTRY, join(input.workDir, "one-tool-sdk-server.js"));
  const oneToolEnglish = await bundleEntry(ONE_TOOL_SERVER_ENTRY, join(input.workDir, "one-tool-sdk-server-en.js"), [zodEnglishOnly]);
  const custody = { args: [input.custodyBundle], env: input.custodyEnv };
  // The first start of a configuration: a cache folder of its own, its opening answers removed before each start.
  const emptyCacheHome = join(input.workDir, "empty-answers-cache");
  const emptyCache = { args: custody.args, env: { ...custody.env, XDG_CACHE_HOME: emptyCacheHome } };
  const emptyAnswers = () => rmSync(join(emptyCacheHome, "custody-mcp", "opening-answers"), { recursive: true, force: true });
  // The README's start: no base URL, so the server starts the emulator in-process on the demo workspace.
  const embedded = { args: custody.args, env: { PATH: custody.env.PATH ?? "", HOME: custody.env.HOME ?? "" } };
  const variants: Variant[] = [
    { key: "floor", label: "hand-written stdio JSON-RPC responder (floor)", command: { args: [MINIMAL_RESPONDER], env: baseEnv }, revision: "2025-11-25" },
    { key: "one_tool", label: "SDK v2 McpServer, one tool, esbuild bundle, 2025-11-25", command: { args: [oneTool], env: baseEnv }, revision: "2025-11-25" },
    {
      key: "one_tool_en",
      label: "SDK v2 McpServer, one tool, esbuild bundle without zod's other locales (as build.mjs does)",
      command: { args: [oneToolEnglish], env: baseEnv },
      revision: "2025-11-25",
    },
    { key: "custody", label: "custody server bundle (all tools, external base URL), 2025-11-25", command: custody, revision: "2025-11-25", loaded: true },
    {
      key: "custody_empty_cache",
      label: "custody server bundle, 2025-11-25, opening answers cache empty (first start of a configuration)",
      command: emptyCache,
      revision: "2025-11-25",
      loaded: true,
      prepare: emptyAnswers,
    },
    { key: "custody_embedded", label: "custody server bundle, embedded demo workspace (no base URL), 2025-11-25", command: embedded, revision: "2025-11-25" },
    {
      key: "one_tool_2026",
      label: "SDK v2 McpServer, one tool, 2026-07-28 (server/discover)",
      command: { args: [oneTool], env: baseEnv },
      revision: "2026-07-28",
    },
    { key: "custody_2026", label: "custody server bundle, 2026-07-28 (server/discover)", command: custody, revision: "2026-07-28", loaded: true },
    { key: "custody_embedded_2026", label: "custody server bundle, embedded demo workspace, 2026-07-28", command: embedded, revision: "2026-07-28" },
    {
      key: "custody_2026_empty_cache",
      label: "custody server bundle, 2026-07-28, opening answers cache empty",
      command: emptyCache,
      revision: "2026-07-28",
      loaded: true,
      prepare: emptyAnswers,
    },
  ];
  if (input.node22 !== null) {
    const node = input.node22;
    variants.push(
      { key: "one_tool_node22", label: "SDK v2 McpServer, one tool, under Node 22", command: { args: [oneTool], env: baseEnv, node }, revision: "2025-11-25" },
      {
        key: "custody_node22",
        label: "custody server bundle under Node 22, its compile cache filled by the warm-up start",
        command: { ...custody, node },
        revision: "2025-11-25",
      },
      {
        key: "custody_node22_uncached",
        label: "custody server bundle under Node 22, NODE_DISABLE_COMPILE_CACHE=1",
        command: { args: custody.args, env: { ...custody.env, NODE_DISABLE_COMPILE_CACHE: "1" }, node },
        revision: "2025-11-25",
      },
    );
  }
  // The first start of each fills its caches (the custody server's compile cache under Node 22 among them): not timed.
  // The custody server's answers cache is filled too (the rows "empty" remove theirs before each start).
  for (const variant of variants) await coldStart(variant.command, variant.revision);
  const samples = new Map<string, ColdStartSample[]>(variants.map((variant) => [variant.key, []]));
  for (let run = 0; run < input.runs; run += 1) {
    for (const variant of variants) {
      variant.prepare?.();
      samples.get(variant.key)?.push(await coldStart(variant.command, variant.revision, variant.loaded));
    }
  }
  const summary = Object.fromEntries(
    variants.map((variant) => {
      const runs = samples.get(variant.key) ?? [];
      return [
        variant.key,
        {
          label: variant.label,
          runs: runs.length,
          initializeMedianMs: roundMs(median(runs.map((sample) => sample.initializeMs))),
          toolsListMedianMs: roundMs(median(runs.map((sample) => sample.toolsListMs))),
          toolsListMinMs: roundMs(Math.min(...runs.map((sample) => sample.toolsListMs))),
          toolsListMaxMs: roundMs(Math.max(...runs.map((sample) => sample.toolsListMs))),
          loadedMedianMs: variant.loaded ? roundMs(median(runs.map((sample) => sample.loadedMs ?? Number.NaN))) : null,
          peakRssKb: Math.max(...runs.map((sample) => sample.peakRssKb ?? 0)) || null,
        },
      ];
    }),
  );
  const ms = (key: string) => summary[key]?.toolsListMedianMs ?? Number.NaN;
  const fastest = (key: string) => summary[key]?.toolsListMinMs ?? Number.NaN;
  const initMs = (key: string) => summary[key]?.initializeMedianMs ?? Number.NaN;
  const listOnly = (key: string) => roundMs((summary[key]?.toolsListMedianMs ?? Number.NaN) - (summary[key]?.initializeMedianMs ?? Number.NaN));
  const peakMib = (key: string) => {
    const kb = summary[key]?.peakRssKb;
    return kb === null || kb === undefined ? Number.NaN : Math.round(kb / 102.4) / 10;
  };
  const startRow = (key: string, base: string, generation: string, v1?: string): Figure => {
    const r = ratio(ms(key), ms(base));
    return {
      measure: `custody server: spawn to tools/list answered, ${generation} (median)`,
      value: ms(key),
      unit: "ms",
      baseline: `one-tool SDK v2 server, ${generation}`,
      baselineValue: ms(base),
      ratio: r,
      target: `ratio <= ${COLD_START_RATIO_TARGET}`,
      meetsTarget: r === null ? null : r <= COLD_START_RATIO_TARGET,
      ...(v1 === undefined ? {} : { quoted: `${v1} against ${V1.oneTool} (${V1.ratio})` }),
    };
  };
  const peakRow = (key: string, generation: string): Figure => ({
    measure: `custody server: peak memory after a cold start and the server loaded (a prompts/list answered), ${generation} (VmHWM, largest of the runs)`,
    value: peakMib(key),
    unit: "MiB",
    baseline: "one-tool SDK v2 server",
    baselineValue: peakMib("one_tool"),
    ratio: ratio(peakMib(key), peakMib("one_tool")),
    target: `<= ${COLD_START_PEAK_MIB_TARGET} MiB`,
    meetsTarget: Number.isFinite(peakMib(key)) ? peakMib(key) <= COLD_START_PEAK_MIB_TARGET : null,
    quoted: `${V1.peak} (one-tool ${V1.oneToolPeak})`,
  });
  const loadedMs = (key: string) => summary[key]?.loadedMedianMs ?? Number.NaN;
  const emptyCacheRow = (key: string, base: string, generation: string): Figure => ({
    ...startRow(key, base, generation),
    measure: `custody server, its first start (opening answers cache empty): spawn to tools/list answered, ${generation} (median)`,
    note: "the whole server answers the opening, and its answers are recorded for the next start",
  });
  const embeddedRow = (key: string, base: string, generation: string): Figure => ({
    ...startRow(key, base, generation),
    measure: `custody server on the embedded demo workspace (the README's start, no base URL): spawn to tools/list answered, ${generation} (median)`,
    note: "the opening answered from the cache; the emulator starts in-process with the server, after the tools/list answer",
  });
  const loadedRow = (key: string, base: string, generation: string): Figure => ({
    measure: `custody server: spawn to a prompts/list after tools/list answered (the whole server loaded), ${generation} (median)`,
    value: loadedMs(key),
    unit: "ms",
    baseline: `one-tool SDK v2 server: spawn to tools/list answered, ${generation}`,
    baselineValue: ms(base),
    ratio: ratio(loadedMs(key), ms(base)),
    note: "what the opening answered from the cache leaves to load: the server, after the tools/list answer",
  });
  const figures: Figure[] = [
    startRow("custody", "one_tool", "2025-11-25", V1.custody),
    startRow("custody_2026", "one_tool_2026", "2026-07-28"),
    embeddedRow("custody_embedded", "one_tool", "2025-11-25"),
    embeddedRow("custody_embedded_2026", "one_tool_2026", "2026-07-28"),
    emptyCacheRow("custody_empty_cache", "one_tool", "2025-11-25"),
    emptyCacheRow("custody_2026_empty_cache", "one_tool_2026", "2026-07-28"),
    loadedRow("custody", "one_tool", "2025-11-25"),
    loadedRow("custody_2026", "one_tool_2026", "2026-07-28"),
    {
      measure: "custody server: spawn to tools/list answered, 2025-11-25 (fastest run)",
      value: fastest("custody"),
      unit: "ms",
      baseline: "one-tool SDK v2 server",
      baselineValue: fastest("one_tool"),
      ratio: ratio(fastest("custody"), fastest("one_tool")),
      note: "least disturbed by other work on the machine",
      quoted: V1.custodyFastest,
    },
    {
      measure: "custody server: spawn to tools/list answered, 2025-11-25 (median)",
      value: ms("custody"),
      unit: "ms",
      baseline: "one-tool SDK v2 server, bundled without zod's other locales too",
      baselineValue: ms("one_tool_en"),
      ratio: ratio(ms("custody"), ms("one_tool_en")),
      note: "the baseline given the one bundling step of build.mjs it can take (it needs Ajv: it builds the SDK's default validator)",
    },
    {
      measure: "custody server: spawn to tools/list answered, 2025-11-25 (median)",
      value: ms("custody"),
      unit: "ms",
      baseline: "hand-written floor",
      baselineValue: ms("floor"),
      ratio: ratio(ms("custody"), ms("floor")),
    },
    {
      measure: "one-tool SDK v2 server: spawn to tools/list answered (median)",
      value: ms("one_tool"),
      unit: "ms",
      baseline: "hand-written floor",
      baselineValue: ms("floor"),
      ratio: ratio(ms("one_tool"), ms("floor")),
      quoted: V1.oneTool,
    },
    {
      measure: "custody server: spawn to initialize answered (median)",
      value: initMs("custody"),
      unit: "ms",
      baseline: "one-tool SDK v2 server",
      baselineValue: initMs("one_tool"),
      ratio: ratio(initMs("custody"), initMs("one_tool")),
      note: "answered from the opening answers cache; the server is loaded after the tools/list answer (the rows above)",
      quoted: V1.initialize,
    },
    {
      measure: "custody server: tools/list alone (after initialize)",
      value: listOnly("custody"),
      unit: "ms",
      baseline: "one-tool SDK v2 server",
      baselineValue: listOnly("one_tool"),
      ratio: ratio(listOnly("custody"), listOnly("one_tool")),
      note: "answered from the listings generated at build time (mcp-server/build.mjs)",
      quoted: V1.listOnly,
    },
    peakRow("custody", "2025-11-25"),
    peakRow("custody_2026", "2026-07-28"),
    ...(input.node22 === null ? [] : node22Rows(ms)),
  ];
  const last = (key: string) => samples.get(key)?.at(-1)?.toolsList as RpcAnswer;
  return {
    section: { title: `MCP server cold start (median of ${input.runs} runs)`, figures, details: summary },
    custodyToolsList: last("custody"),
    custodyToolsList2026: last("custody_2026"),
    oneToolToolsList: last("one_tool"),
    peakRssKb: Object.fromEntries(Object.entries(summary).map(([key, value]) => [key, value.peakRssKb])),
  };
}
