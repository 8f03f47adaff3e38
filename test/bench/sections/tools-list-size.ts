import type { Figure, Section } from "../support/bench-report.js";
import { ratio } from "../support/latency-stats.js";
import type { RpcAnswer } from "../support/stdio-rpc-session.js";

/** The fixed reference: bytes per tool of the reference filesystem server's tools/list. */
export const FILESYSTEM_SERVER_BYTES_PER_TOOL = 927;
/** Issues 14 and 21's targets, for what a model reads: at most 700 bytes per tool on average and 6,000 tokens in all. */
export const BYTES_PER_TOOL_TARGET = 700;
export const TOKENS_TARGET = 6000;

const tokens = (bytes: number) => Math.round(bytes / 4);
const jsonBytes = (value: unknown) => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value), "utf8"));

interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: unknown;
  outputSchema?: unknown;
}

/** Per tool: its whole JSON, what a host may show a model of it (issue 21: name, title, description, input schema, annotations) and its output schema, which no host shows a model. */
function toolBytes(answer: RpcAnswer): { name: string; bytes: number; model: number; output: number }[] {
  const tools = (answer.result.tools ?? []) as ListedTool[];
  return tools.map((tool) => {
    const { name, title, description, inputSchema, annotations } = tool;
    return { name, bytes: jsonBytes(tool), model: jsonBytes({ name, title, description, inputSchema, annotations }), output: jsonBytes(tool.outputSchema) };
  });
}

const total = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0);

/** tools/list as a client receives it: the whole JSON-RPC line, and each tool's JSON. */
export function measureToolsListSize(custody: RpcAnswer, oneTool: RpcAnswer, custody2026?: RpcAnswer): Section {
  const perTool = toolBytes(custody);
  const count = perTool.length;
  const average = count === 0 ? Number.NaN : Math.round(total(perTool.map((tool) => tool.bytes)) / count);
  const modelBytes = total(perTool.map((tool) => tool.model));
  const modelAverage = count === 0 ? Number.NaN : Math.round(modelBytes / count);
  const outputBytes = total(perTool.map((tool) => tool.output));
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
      quoted: "5,858 tokens",
      note: "the whole answer, output schemas and icons included: read by the client, not a model",
    },
    {
      measure: "what a model reads (name, title, description, input schema, annotations), estimated tokens",
      value: tokens(modelBytes),
      unit: "tokens",
      baseline: "the whole answer",
      baselineValue: tokens(custody.bytes),
      ratio: ratio(modelBytes, custody.bytes),
      target: `<= ${TOKENS_TARGET} tokens`,
      meetsTarget: tokens(modelBytes) <= TOKENS_TARGET,
    },
    {
      measure: "bytes per tool a model reads (average)",
      value: modelAverage,
      unit: "bytes",
      baseline: "reference filesystem server (fixed figure from the issue)",
      baselineValue: FILESYSTEM_SERVER_BYTES_PER_TOOL,
      ratio: ratio(modelAverage, FILESYSTEM_SERVER_BYTES_PER_TOOL),
      target: `<= ${BYTES_PER_TOOL_TARGET} bytes per tool`,
      meetsTarget: Number.isFinite(modelAverage) ? modelAverage <= BYTES_PER_TOOL_TARGET : null,
      quoted: "687 bytes",
    },
    {
      measure: "output schemas, all tools (reported apart: no host shows them a model)",
      value: outputBytes,
      unit: "bytes",
      baseline: "the whole answer",
      baselineValue: custody.bytes,
      ratio: ratio(outputBytes, custody.bytes),
    },
    {
      measure: "bytes per tool, whole JSON (average)",
      value: average,
      unit: "bytes",
      baseline: "reference filesystem server (fixed figure from the issue)",
      baselineValue: FILESYSTEM_SERVER_BYTES_PER_TOOL,
      ratio: averageVsReference,
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
    details: { perTool: perTool.map((tool) => ({ ...tool, tokens: tokens(tool.bytes), modelTokens: tokens(tool.model) })) },
    table: {
      headers: [
        "Tool",
        "Bytes",
        "What a model reads (bytes)",
        "Output schema (bytes)",
        "Tokens a model reads (bytes / 4)",
        `Ratio to ${FILESYSTEM_SERVER_BYTES_PER_TOOL} bytes`,
      ],
      rows: perTool.map((tool) => [
        tool.name,
        tool.bytes,
        tool.model,
        tool.output,
        tokens(tool.model),
        (tool.bytes / FILESYSTEM_SERVER_BYTES_PER_TOOL).toFixed(2),
      ]),
    },
  };
}
