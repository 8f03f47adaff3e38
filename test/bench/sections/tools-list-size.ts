import type { Figure, Section } from "../support/bench-report.js";
import { ratio } from "../support/latency-stats.js";
import type { RpcAnswer } from "../support/stdio-rpc-session.js";

/** The fixed reference: bytes per tool of the reference filesystem server's tools/list. */
export const FILESYSTEM_SERVER_BYTES_PER_TOOL = 927;
/** Issue 14's targets: at most 700 bytes per tool on average and 6,000 tokens in all. */
export const BYTES_PER_TOOL_TARGET = 700;
export const TOKENS_TARGET = 6000;

const tokens = (bytes: number) => Math.round(bytes / 4);

function toolBytes(answer: RpcAnswer): { name: string; bytes: number }[] {
  const tools = (answer.result.tools ?? []) as { name: string }[];
  return tools.map((tool) => ({ name: tool.name, bytes: Buffer.byteLength(JSON.stringify(tool), "utf8") }));
}

/** tools/list as a client receives it: the whole JSON-RPC line, and each tool's JSON. */
export function measureToolsListSize(custody: RpcAnswer, oneTool: RpcAnswer, custody2026?: RpcAnswer): Section {
  const perTool = toolBytes(custody);
  const count = perTool.length;
  const average = count === 0 ? Number.NaN : Math.round(perTool.reduce((sum, tool) => sum + tool.bytes, 0) / count);
  const largest = [...perTool].sort((a, b) => b.bytes - a.bytes)[0];
  const oneToolBytes = toolBytes(oneTool)[0]?.bytes ?? Number.NaN;
  const averageVsReference = ratio(average, FILESYSTEM_SERVER_BYTES_PER_TOOL);
  const figures: Figure[] = [
    {
      measure: `tools/list answer, ${count} tools, 2025-11-25`,
      value: custody.bytes,
      unit: "bytes",
      baseline: "one-tool SDK v2 server's answer",
      baselineValue: oneTool.bytes,
      ratio: ratio(custody.bytes, oneTool.bytes),
      quoted: "23,431 bytes (one-tool 282)",
    },
    ...(custody2026 === undefined
      ? []
      : [
          {
            measure: `tools/list answer, ${toolBytes(custody2026).length} tools, 2026-07-28`,
            value: custody2026.bytes,
            unit: "bytes",
            baseline: "the same over 2025-11-25",
            baselineValue: custody.bytes,
            ratio: ratio(custody2026.bytes, custody.bytes),
            note: "the revision's result envelope (resultType, cache hints, serverInfo in _meta) on top of the same tools",
          },
        ]),
    {
      measure: "tools/list answer, estimated tokens (bytes / 4)",
      value: tokens(custody.bytes),
      unit: "tokens",
      baseline: "one-tool SDK server",
      baselineValue: tokens(oneTool.bytes),
      ratio: ratio(custody.bytes, oneTool.bytes),
      target: `<= ${TOKENS_TARGET} tokens`,
      meetsTarget: tokens(custody.bytes) <= TOKENS_TARGET,
      quoted: "5,858 tokens",
    },
    {
      measure: "bytes per tool (average)",
      value: average,
      unit: "bytes",
      baseline: "reference filesystem server (fixed figure from the issue)",
      baselineValue: FILESYSTEM_SERVER_BYTES_PER_TOOL,
      ratio: averageVsReference,
      target: `<= ${BYTES_PER_TOOL_TARGET} bytes per tool`,
      meetsTarget: Number.isFinite(average) ? average <= BYTES_PER_TOOL_TARGET : null,
      quoted: "687 bytes",
    },
    {
      measure: `largest tool (${largest?.name ?? "none"})`,
      value: largest?.bytes ?? null,
      unit: "bytes",
      baseline: "reference filesystem server",
      baselineValue: FILESYSTEM_SERVER_BYTES_PER_TOOL,
      ratio: ratio(largest?.bytes ?? Number.NaN, FILESYSTEM_SERVER_BYTES_PER_TOOL),
    },
    {
      measure: "one tool of the SDK baseline (echo, one string field)",
      value: oneToolBytes,
      unit: "bytes",
      baseline: "reference filesystem server",
      baselineValue: FILESYSTEM_SERVER_BYTES_PER_TOOL,
      ratio: ratio(oneToolBytes, FILESYSTEM_SERVER_BYTES_PER_TOOL),
    },
  ];
  return {
    title: "tools/list size",
    figures,
    details: { perTool: perTool.map((tool) => ({ ...tool, tokens: tokens(tool.bytes) })) },
    table: {
      headers: ["Tool", "Bytes", "Tokens (bytes / 4)", `Ratio to ${FILESYSTEM_SERVER_BYTES_PER_TOOL} bytes`],
      rows: perTool.map((tool) => [tool.name, tool.bytes, tokens(tool.bytes), (tool.bytes / FILESYSTEM_SERVER_BYTES_PER_TOOL).toFixed(2)]),
    },
  };
}
