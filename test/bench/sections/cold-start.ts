import { join } from "node:path";
import type { Figure, Section } from "../support/bench-report.js";
import { median, ratio, roundMs } from "../support/latency-stats.js";
import { zodEnglishOnly } from "../../../mcp-server/bundle-options.mjs";
import { bundleEntry, MINIMAL_RESPONDER, ONE_TOOL_SERVER_ENTRY } from "../support/program-bundles.js";
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

interface Variant {
  key: string;
  label: string;
  command: ProgramCommand;
}

/**
 * Cold start: spawn, initialize, tools/list answered, median of `runs` (the variants interleaved
 * so that drift on a shared machine hits them alike).
 */
export async function measureColdStart(input: ColdStartInput): Promise<ColdStartOutput> {
  const baseEnv = { PATH: process.env.PATH ?? "" };
  const oneTool = await bundleEntry(ONE_TOOL_SERVER_ENTRY, join(input.workDir, "one-tool-sdk-server.js"));
  const oneToolEnglish = await bundleEntry(ONE_TOOL_SERVER_ENTRY, join(input.workDir, "one-tool-sdk-server-en.js"), [zodEnglishOnly]);
  const variants: Variant[] = [
    { key: "floor", label: "hand-written stdio JSON-RPC responder (floor)", command: { args: [MINIMAL_RESPONDER], env: baseEnv } },
    { key: "one_tool", label: "SDK McpServer, one tool, esbuild bundle", command: { args: [oneTool], env: baseEnv } },
    { key: "one_tool_en", label: "SDK McpServer, one tool, esbuild bundle without zod's other locales (as build.mjs does)", command: { args: [oneToolEnglish], env: baseEnv } },
    { key: "custody", label: "custody server bundle (all tools, external base URL)", command: { args: [input.custodyBundle], env: input.custodyEnv } },
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
    {
      measure: "custody server: spawn to tools/list answered (median)",
      value: ms("custody"),
      unit: "ms",
      baseline: "one-tool SDK server, bundled without zod's other locales too",
      baselineValue: ms("one_tool_en"),
      ratio: ratio(ms("custody"), ms("one_tool_en")),
      note: "the baseline given the one bundling step of build.mjs it can take (it needs Ajv: it builds the SDK's default validator)",
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
      note: "module loading and start; the tools, the client and the audit log are loaded on the first call",
    },
    {
      measure: "custody server: tools/list alone (after initialize)",
      value: listOnly("custody"),
      unit: "ms",
      baseline: "one-tool SDK server",
      baselineValue: listOnly("one_tool"),
      ratio: ratio(listOnly("custody"), listOnly("one_tool")),
      note: "answered from the listings generated at build time (mcp-server/build.mjs)",
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
