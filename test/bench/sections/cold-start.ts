import { join } from "node:path";
import type { Figure, Section } from "../support/bench-report.js";
import { median, ratio, roundMs } from "../support/latency-stats.js";
import { bundleEntry, bundleEntrySplit, CUSTODY_SERVER_ENTRY, editSources, MINIMAL_RESPONDER, ONE_TOOL_SERVER_ENTRY, type SourceEdit } from "../support/program-bundles.js";
import { coldStart, type ColdStartSample, type ProgramCommand, type RpcAnswer } from "../support/stdio-rpc-session.js";

export interface ColdStartInput {
  /** The MCP server as shipped (mcp-server/build.mjs). */
  custodyBundle: string;
  /** Environment of the custody server: an external base URL, an operator, a fresh audit log. */
  custodyEnv: Record<string, string>;
  workDir: string;
  runs: number;
}

export interface ColdStartOutput {
  section: Section;
  /** The custody server's tools/list answer, for the size section. */
  custodyToolsList: RpcAnswer;
  oneToolToolsList: RpcAnswer;
  peakRssKb: Record<string, number | null>;
}

/** The proposed fix, part 1: load the embedded emulator (and @noble) only when no base URL is given. */
const LAZY_EMULATOR: SourceEdit[] = [
  { file: "mcp-server/src/server/start-context.ts", from: 'import { startEmbeddedWorkspace } from "../embedded/embedded-workspace.js";\n', to: "" },
  {
    file: "mcp-server/src/server/start-context.ts",
    from: "const workspace = await startEmbeddedWorkspace(log);",
    to: 'const { startEmbeddedWorkspace } = await import("../embedded/embedded-workspace.js");\n    const workspace = await startEmbeddedWorkspace(log);',
  },
];
/** Part 2: load the Streamable HTTP transport (SDK, @hono/node-server, which loads undici) only with --http. */
const LAZY_HTTP: SourceEdit[] = [
  { file: "mcp-server/src/cli/main.ts", from: 'import { startHttpServer } from "../transport/http-server.js";\n', to: "" },
  {
    file: "mcp-server/src/cli/main.ts",
    from: "const http = await startHttpServer(",
    to: 'const { startHttpServer } = await import("../transport/http-server.js");\n  const http = await startHttpServer(',
  },
];

interface Variant {
  key: string;
  label: string;
  command: ProgramCommand;
}

/**
 * Cold start: spawn, initialize, tools/list answered, median of `runs` (the variants interleaved
 * so that drift on a shared machine hits them alike). Two diagnostic builds of the custody server
 * import on demand the modules it loads without needing them when a base URL is given.
 */
export async function measureColdStart(input: ColdStartInput): Promise<ColdStartOutput> {
  const baseEnv = { PATH: process.env.PATH ?? "" };
  const oneTool = await bundleEntry(ONE_TOOL_SERVER_ENTRY, join(input.workDir, "one-tool-sdk-server.js"));
  const lazyEmulator = await bundleEntry(CUSTODY_SERVER_ENTRY, join(input.workDir, "custody-lazy-emulator.js"), [editSources(LAZY_EMULATOR)]);
  const lazyBoth = await bundleEntry(CUSTODY_SERVER_ENTRY, join(input.workDir, "custody-lazy-emulator-http.js"), [editSources([...LAZY_EMULATOR, ...LAZY_HTTP])]);
  const lazySplit = await bundleEntrySplit(CUSTODY_SERVER_ENTRY, join(input.workDir, "custody-lazy-split"), [editSources([...LAZY_EMULATOR, ...LAZY_HTTP])]);
  const variants: Variant[] = [
    { key: "floor", label: "hand-written stdio JSON-RPC responder (floor)", command: { args: [MINIMAL_RESPONDER], env: baseEnv } },
    { key: "one_tool", label: "SDK McpServer, one tool, esbuild bundle", command: { args: [oneTool], env: baseEnv } },
    { key: "custody", label: "custody server bundle (all tools, external base URL)", command: { args: [input.custodyBundle], env: input.custodyEnv } },
    { key: "custody_lazy_emulator", label: "diagnostic: custody, embedded emulator imported on demand", command: { args: [lazyEmulator], env: input.custodyEnv } },
    {
      key: "custody_lazy_emulator_http",
      label: "diagnostic: custody, embedded emulator and HTTP transport imported on demand",
      command: { args: [lazyBoth], env: input.custodyEnv },
    },
    {
      key: "custody_lazy_split",
      label: "diagnostic: the same, with esbuild code splitting (the deferred modules in chunk files)",
      command: { args: [lazySplit], env: input.custodyEnv },
    },
  ];
  for (const variant of variants) await coldStart(variant.command);
  const samples = new Map<string, ColdStartSample[]>(variants.map((variant) => [variant.key, []]));
  for (let run = 0; run < input.runs; run += 1) {
    for (const variant of variants) samples.get(variant.key)?.push(await coldStart(variant.command));
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
          peakRssKb: Math.max(...runs.map((sample) => sample.peakRssKb ?? 0)) || null,
        },
      ];
    }),
  );
  const ms = (key: string) => summary[key]?.toolsListMedianMs ?? Number.NaN;
  const fastest = (key: string) => summary[key]?.toolsListMinMs ?? Number.NaN;
  const saves = (key: string) => `saves ${roundMs(ms("custody") - ms(key))} ms at the median, ${roundMs(fastest("custody") - fastest(key))} ms in the fastest runs`;
  const initMs = (key: string) => summary[key]?.initializeMedianMs ?? Number.NaN;
  const listOnly = (key: string) => roundMs((summary[key]?.toolsListMedianMs ?? Number.NaN) - (summary[key]?.initializeMedianMs ?? Number.NaN));
  const custodyVsOneTool = ratio(ms("custody"), ms("one_tool"));
  const figures: Figure[] = [
    {
      measure: "custody server: spawn to tools/list answered (median)",
      value: ms("custody"),
      unit: "ms",
      baseline: "one-tool SDK server",
      baselineValue: ms("one_tool"),
      ratio: custodyVsOneTool,
      target: "ratio <= 1.0",
      meetsTarget: custodyVsOneTool === null ? null : custodyVsOneTool <= 1,
    },
    {
      measure: "custody server: spawn to tools/list answered (fastest run)",
      value: fastest("custody"),
      unit: "ms",
      baseline: "one-tool SDK server",
      baselineValue: fastest("one_tool"),
      ratio: ratio(fastest("custody"), fastest("one_tool")),
      note: "least disturbed by other work on the machine",
    },
    { measure: "custody server: spawn to tools/list answered (median)", value: ms("custody"), unit: "ms", baseline: "hand-written floor", baselineValue: ms("floor"), ratio: ratio(ms("custody"), ms("floor")) },
    { measure: "one-tool SDK server: spawn to tools/list answered (median)", value: ms("one_tool"), unit: "ms", baseline: "hand-written floor", baselineValue: ms("floor"), ratio: ratio(ms("one_tool"), ms("floor")) },
    {
      measure: "custody server: spawn to initialize answered (median)",
      value: initMs("custody"),
      unit: "ms",
      baseline: "one-tool SDK server",
      baselineValue: initMs("one_tool"),
      ratio: ratio(initMs("custody"), initMs("one_tool")),
      note: "module loading, context, 32 tools registered",
    },
    {
      measure: "custody server: tools/list alone (after initialize)",
      value: listOnly("custody"),
      unit: "ms",
      baseline: "one-tool SDK server",
      baselineValue: listOnly("one_tool"),
      ratio: ratio(listOnly("custody"), listOnly("one_tool")),
      note: "zod to JSON Schema of every tool, on each tools/list",
    },
    {
      measure: "diagnostic build: the embedded emulator imported on demand (start-context.ts)",
      value: ms("custody_lazy_emulator"),
      unit: "ms",
      baseline: "one-tool SDK server",
      baselineValue: ms("one_tool"),
      ratio: ratio(ms("custody_lazy_emulator"), ms("one_tool")),
      note: saves("custody_lazy_emulator"),
    },
    {
      measure: "diagnostic build: the embedded emulator and the HTTP transport (cli/main.ts) imported on demand",
      value: ms("custody_lazy_emulator_http"),
      unit: "ms",
      baseline: "one-tool SDK server",
      baselineValue: ms("one_tool"),
      ratio: ratio(ms("custody_lazy_emulator_http"), ms("one_tool")),
      note: saves("custody_lazy_emulator_http"),
    },
    {
      measure: "diagnostic build: both imported on demand, with esbuild code splitting (chunk files beside the bundle)",
      value: ms("custody_lazy_split"),
      unit: "ms",
      baseline: "one-tool SDK server",
      baselineValue: ms("one_tool"),
      ratio: ratio(ms("custody_lazy_split"), ms("one_tool")),
      note: saves("custody_lazy_split"),
    },
  ];
  const last = (key: string) => samples.get(key)?.at(-1)?.toolsList as RpcAnswer;
  return {
    section: { title: `MCP server cold start (median of ${input.runs} runs)`, figures, details: summary },
    custodyToolsList: last("custody"),
    oneToolToolsList: last("one_tool"),
    peakRssKb: Object.fromEntries(Object.entries(summary).map(([key, value]) => [key, value.peakRssKb])),
  };
}
